// Sums the vitest JSON reports of every package (test-results/vitest.json) and prints the
// closing line CI reads: "N passed, N failed". Given turbo's dry-run JSON of the test task
// (scripts/test.sh passes it), a package that has a test script but left no report (it could not
// start, crashed, or its build failed) counts as one failure, never as silently missing; so does
// a test file that failed to load, and a run that failed with no failing test (unhandled errors).
import fs from "node:fs";
import path from "node:path";

/** Package folders whose test task turbo runs, from `turbo run test --dry=json`. */
function expectedPackages(dryRunFile) {
  if (!dryRunFile) return undefined;
  const plan = JSON.parse(fs.readFileSync(dryRunFile, "utf8"));
  return plan.tasks.filter((t) => t.task === "test" && t.command !== "<NONEXISTENT>").map((t) => t.directory);
}

const listed = [
  "spec",
  ...["apps", "packages", "tooling"].flatMap((d) =>
    fs.existsSync(d) ? fs.readdirSync(d).map((p) => path.join(d, p)) : [],
  ),
];
const expected = expectedPackages(process.argv[2]);
const roots = [...new Set([...(expected ?? []), ...listed])].sort();
let passed = 0;
let failed = 0;
let skipped = 0;
for (const root of roots) {
  const file = path.join(root, "test-results", "vitest.json");
  if (!fs.existsSync(file)) {
    if (expected?.includes(root)) {
      failed += 1;
      console.log(`${root}: FAILED, no test report (the package's tests could not run)`);
    }
    continue;
  }
  let report;
  try {
    report = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (err) {
    failed += 1;
    console.log(`${root}: FAILED, unreadable test report (${err.message})`);
    continue;
  }
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  const broken = (report.testResults ?? []).filter(
    (r) => r.status === "failed" && (r.assertionResults ?? []).length === 0,
  );
  failed += broken.length;
  const runFailed = report.success === false && report.numFailedTests === 0 && broken.length === 0;
  if (runFailed) failed += 1;
  const notes = [
    broken.length ? `${broken.length} suites failed to load` : "",
    runFailed ? "the run failed (errors outside tests)" : "",
  ].filter(Boolean);
  console.log(
    `${root}: ${report.numPassedTests} passed, ${report.numFailedTests} failed${notes.length ? `, ${notes.join(", ")}` : ""}`,
  );
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(passed + failed === 0 || failed > 0 ? 1 : 0);
