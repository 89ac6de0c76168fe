// pnpm --filter @tracker-ml/spec-diff bench [--runs N] [--quick] [--no-write] [--baseline <bin.js> [--baseline-name <text>]]
//   [--without-extra-ca-certs]
//
// --baseline adds an earlier build of the bin (e.g. one built at an older commit, with its own
// node_modules beside it) to the same interleaved run, for before/after figures under one load.
//
// Start-up plus diff, measured as a user runs it, in one run and interleaved so that both ways
// see the same machine load: the old way (the TypeScript source through tsx, as `pnpm spec:diff`
// ran it before) and the compiled bin (`node dist/bin.cjs`, what the root script and the published
// command run), plus the root script through pnpm. Two cases: revision B -> revision C (the
// issue's `pnpm spec:diff b c`) and two 3,000-line specs (rev-c.yaml and a copy with one field
// changed). Writes its own section of docs/benchmarks.md (between the spec-diff markers).
//
// Node's own start (`node -e 0`) is measured in the same run as the floor under every figure. When
// NODE_EXTRA_CA_CERTS is set, Node 20 reads and parses that file, and its own root certificates,
// at the start of every process, before any JavaScript runs (about 85 ms of CPU time with a whole
// CA bundle there): the floor is then measured with and without it. --without-extra-ca-certs runs
// every command without the variable (and the report says so).
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const pkg = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const root = path.resolve(pkg, "../..");
const specDir = path.join(root, "spec");
const START = "<!-- spec-diff:start -->";
const END = "<!-- spec-diff:end -->";
const TARGET_SECONDS = 0.5;

const argv = process.argv.slice(2).filter((a) => a !== "--");
const quick = argv.includes("--quick");
const write = !argv.includes("--no-write");
const runsAt = argv.indexOf("--runs");
const runs = runsAt >= 0 ? Number(argv[runsAt + 1]) : quick ? 3 : 9;
const option = (name) => {
  const at = argv.indexOf(name);
  return at >= 0 ? argv[at + 1] : undefined;
};
const withoutExtraCaCerts = argv.includes("--without-extra-ca-certs");
const extraCaCerts = withoutExtraCaCerts ? undefined : process.env.NODE_EXTRA_CA_CERTS;
const baseline = option("--baseline") ? path.resolve(option("--baseline")) : undefined;
const baselineName = option("--baseline-name") ?? (baseline ? path.relative(root, baseline) : "");
if (baseline && !fs.existsSync(baseline)) {
  process.stderr.write(`--baseline: ${baseline} does not exist\n`);
  process.exit(2);
}
if (!Number.isInteger(runs) || runs < 1) {
  process.stderr.write("--runs takes a whole number\n");
  process.exit(2);
}

if (!fs.existsSync(path.join(pkg, "dist", "bin.cjs")))
  execFileSync("pnpm", ["run", "build"], { cwd: pkg, stdio: "inherit" });

// Two 3,000-line specs: rev-c.yaml and a copy with the type of one response field changed.
const temp = fs.mkdtempSync(path.join(os.tmpdir(), "spec-diff-bench-"));
fs.cpSync(specDir, path.join(temp, "spec"), {
  recursive: true,
  filter: (source) => !/node_modules|dist$/.test(source),
});
const edited = path.join(temp, "spec", "rev-c.yaml");
const original = fs.readFileSync(edited, "utf8");
const anchor = "        run_name:\n          type: string\n";
if (!original.includes(anchor))
  throw new Error("spec/rev-c.yaml changed: pick another field to edit in scripts/bench.mjs");
fs.writeFileSync(edited, original.replace(anchor, "        run_name:\n          type: integer\n"));

// CPU time, which a busy machine inflates far less than wall time: every Node process of a run
// (pnpm, tsx and its child, the bin) appends its own user + system time to a file at exit.
const cpuFile = path.join(temp, "cpu.txt");
const cpuHook = path.join(temp, "cpu-hook.cjs");
fs.writeFileSync(
  cpuHook,
  `process.on("exit", () => { const u = process.cpuUsage(); require("node:fs").appendFileSync(${JSON.stringify(cpuFile)}, (u.user + u.system) + "\\n"); });\n`,
);

const lines = (file) => fs.readFileSync(file, "utf8").split("\n").length - 1;
const cases = [
  {
    name: "revision B → revision C",
    args: ["b", "c"],
    size: `${lines(path.join(specDir, "rev-b.yaml"))} + ${lines(path.join(specDir, "rev-c.yaml"))} lines`,
  },
  {
    name: "rev-c.yaml → rev-c.yaml with one field changed",
    args: [path.join(specDir, "rev-c.yaml"), edited],
    size: `${lines(path.join(specDir, "rev-c.yaml"))} + ${lines(edited)} lines`,
  },
];
const tsx = path.join(pkg, "node_modules", ".bin", "tsx");
const ways = [
  {
    name: "old: `tsx src/cli.ts` (TypeScript at run time)",
    command: tsx,
    prefix: ["src/cli.ts", "--spec-dir", specDir],
    cwd: pkg,
  },
  {
    name: "new: `node dist/bin.cjs` (the published bin)",
    command: process.execPath,
    prefix: ["dist/bin.cjs", "--spec-dir", specDir],
    cwd: pkg,
  },
  ...(baseline
    ? [
        {
          name: `before: \`node ${path.basename(baseline ?? "")}\` built at ${baselineName}`,
          command: process.execPath,
          prefix: [baseline, "--spec-dir", specDir],
          cwd: pkg,
        },
      ]
    : []),
  {
    name: "`pnpm spec:diff` (the root script: pnpm, then the bin)",
    command: "pnpm",
    prefix: ["--silent", "spec:diff"],
    cwd: root,
  },
];

/** Node's own start, the floor under every figure; with and without NODE_EXTRA_CA_CERTS when it is set. */
const floors = [
  { name: "`node -e 0` (Node's own start)", command: process.execPath, prefix: ["-e", "0"], cwd: pkg },
  ...(extraCaCerts
    ? [
        {
          name: "`node -e 0` without NODE_EXTRA_CA_CERTS",
          command: process.execPath,
          prefix: ["-e", "0"],
          cwd: pkg,
          unsetExtraCaCerts: true,
        },
      ]
    : []),
];

function once(way, args) {
  fs.writeFileSync(cpuFile, "");
  const started = process.hrtime.bigint();
  const nodeOptions = `${process.env.NODE_OPTIONS ?? ""} --require ${cpuHook}`.trim();
  const env = { ...process.env, INIT_CWD: way.cwd, NODE_OPTIONS: nodeOptions };
  if (withoutExtraCaCerts || way.unsetExtraCaCerts) delete env.NODE_EXTRA_CA_CERTS;
  const result = spawnSync(way.command, [...way.prefix, ...args], {
    cwd: way.cwd,
    stdio: ["ignore", "ignore", "pipe"],
    env,
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (result.status !== 0) throw new Error(`${way.name} ${args.join(" ")} failed: ${result.stderr}`);
  const cpu = fs
    .readFileSync(cpuFile, "utf8")
    .split("\n")
    .filter(Boolean)
    .reduce((sum, micros) => sum + Number(micros) / 1e6, 0);
  return { seconds, cpu };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const loadStart = os.loadavg();
const startedAt = new Date();
const results = [];
const floorResults = [];
try {
  for (const [n, c] of cases.entries()) {
    // The floor is measured in turn with the commands of the first case.
    const measured = n === 0 ? [...ways, ...floors] : ways;
    for (const way of measured) once(way, floors.includes(way) ? [] : c.args); // warm the file system cache
    const times = measured.map(() => []);
    for (let i = 0; i < runs; i++)
      for (const [w, way] of measured.entries()) times[w].push(once(way, floors.includes(way) ? [] : c.args));
    for (const [w, way] of floors.entries()) {
      if (n !== 0) break;
      const x = times[ways.length + w];
      const t = x.map((y) => y.seconds);
      floorResults.push({
        way,
        median: median(t),
        min: Math.min(...t),
        max: Math.max(...t),
        cpu: median(x.map((y) => y.cpu)),
      });
      process.stdout.write(
        `${way.name}: median ${median(t).toFixed(2)} s, CPU ${median(x.map((y) => y.cpu)).toFixed(2)} s\n`,
      );
    }
    for (const [w, way] of ways.entries()) {
      const t = times[w].map((x) => x.seconds);
      const cpu = median(times[w].map((x) => x.cpu));
      results.push({ case: c, way, median: median(t), min: Math.min(...t), max: Math.max(...t), cpu });
      process.stdout.write(
        `${c.name} | ${way.name}: median ${median(t).toFixed(2)} s (${t.map((x) => x.toFixed(2)).join(", ")}), CPU ${cpu.toFixed(2)} s\n`,
      );
    }
  }
} finally {
  fs.rmSync(temp, { recursive: true, force: true });
}
const loadEnd = os.loadavg();

const s = (x) => `${x.toFixed(2)} s`;
const newOn3000 = results.find((r) => r.case === cases[1] && r.way === ways[1]);
const oldOn3000 = results.find((r) => r.case === cases[1] && r.way === ways[0]);
const beforeOn3000 = baseline ? results.find((r) => r.case === cases[1] && r.way === ways[2]) : undefined;
const compared = [
  `old way ${s(oldOn3000.median)}, CPU ${s(oldOn3000.cpu)}`,
  ...(beforeOn3000 ? [`build at ${baselineName} ${s(beforeOn3000.median)}, CPU ${s(beforeOn3000.cpu)}`] : []),
].join("; ");
const busy = loadStart[0] > os.availableParallelism();
const section = [
  START,
  "## Spec diff start-up (packages/spec-diff)",
  "",
  `Measured by \`pnpm --filter @tracker-ml/spec-diff bench\` on ${startedAt.toISOString()}: ${runs} runs per command and case, ` +
    `interleaved (one run of each in turn) after one warm-up run each; wall time of the whole process (start-up, reading, ` +
    `diff, report to /dev/null), and its CPU time (user + system of every Node process of the run: pnpm, tsx, the bin), ` +
    `which a busy machine inflates far less. Node ${process.version}, ${os.availableParallelism()} CPUs. Load average (1, 5, 15 min) at ` +
    `the start ${loadStart.map((x) => x.toFixed(2)).join(", ")}, at the end ${loadEnd.map((x) => x.toFixed(2)).join(", ")}.`,
  busy
    ? "**The machine was busy at the start (1-minute load average above its core count)**, so the absolute figures are high and noisy; the ratios compare runs made back to back under the same load."
    : "The ratios compare runs made back to back in this one run.",
  "",
  "| case | size | command | median | min | max | CPU (median) |",
  "|---|---|---|---:|---:|---:|---:|",
  ...results.map(
    (r) =>
      `| ${r.case.name} | ${r.case.size} | ${r.way.name} | ${s(r.median)} | ${s(r.min)} | ${s(r.max)} | ${s(r.cpu)} |`,
  ),
  ...floorResults.map(
    (r) => `| the floor: Node alone | | ${r.way.name} | ${s(r.median)} | ${s(r.min)} | ${s(r.max)} | ${s(r.cpu)} |`,
  ),
  "",
  ...(withoutExtraCaCerts && process.env.NODE_EXTRA_CA_CERTS
    ? [
        "Every command ran without NODE_EXTRA_CA_CERTS (`--without-extra-ca-certs`), which this machine sets: with it, Node 20 parses that file and its own root certificates at the start of every process, before any JavaScript runs.",
        "",
      ]
    : extraCaCerts
      ? [
          "NODE_EXTRA_CA_CERTS is set on this machine: Node 20 parses that file and its own root certificates at the start of every process, before any JavaScript runs, and every command above pays it; the two floor rows show what it costs (`--without-extra-ca-certs` measures without it).",
          "",
        ]
      : []),
  "| target | measured | met |",
  "|---|---|---|",
  `| start-up plus diff of two 3,000-line specs (compiled bin) < ${TARGET_SECONDS} s | median ${s(newOn3000.median)}, CPU ${s(newOn3000.cpu)} (${compared}) | ${newOn3000.median < TARGET_SECONDS ? "yes" : `no${newOn3000.cpu < TARGET_SECONDS ? " (CPU time under it)" : ""}`} |`,
  "",
  "For reference (not measured by this run): the issue measured 2.9 s for `pnpm spec:diff b c` with the previous " +
    "implementation (pnpm, tsx, and Redocly's bundler, whose import alone took 2 s on this machine).",
  END,
].join("\n");

if (write) {
  const file = path.join(root, "docs", "benchmarks.md");
  const report = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "# Benchmarks\n";
  const from = report.indexOf(START);
  const to = report.indexOf(END);
  const next =
    from !== -1 && to > from
      ? report.slice(0, from) + section + report.slice(to + END.length)
      : `${report.trimEnd()}\n\n${section}\n`;
  fs.writeFileSync(file, next);
  process.stdout.write(`wrote ${path.relative(process.cwd(), file)}\n`);
} else process.stdout.write(`${section}\n`);
