// Sums the vitest JSON reports of every package (test-results/vitest.json) and prints the
// closing line CI reads: "N passed, N failed".
import fs from "node:fs";
import path from "node:path";

const roots = ["spec", ...["apps", "packages"].flatMap((d) => (fs.existsSync(d) ? fs.readdirSync(d).map((p) => path.join(d, p)) : []))];
let passed = 0;
let failed = 0;
let skipped = 0;
let reports = 0;
for (const root of roots) {
  const file = path.join(root, "test-results", "vitest.json");
  if (!fs.existsSync(file)) continue;
  const report = JSON.parse(fs.readFileSync(file, "utf8"));
  reports += 1;
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  const broken = (report.testResults ?? []).filter((r) => r.status === "failed" && (r.assertionResults ?? []).length === 0);
  failed += broken.length;
  console.log(`${root}: ${report.numPassedTests} passed, ${report.numFailedTests} failed${broken.length ? `, ${broken.length} suites failed to load` : ""}`);
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(reports === 0 || failed > 0 ? 1 : 0);
