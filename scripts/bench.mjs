// pnpm bench [options]: the server bench (tooling/bench) with every option given, then the web UI
// bench (tooling/web-bench) with the options it knows. pnpm would hand the options to the last command
// of a `a && b` script only, so `pnpm bench --only runs/search` ran every server scenario.
// The web UI bench is left out when --only picks server scenarios, and prints only (--no-write)
// when --out sends the server's report elsewhere. Exits with the first failing part's status.
import { spawnSync } from "node:child_process";

const args = process.argv.slice(2).filter((a) => a !== "--");
const pnpm = (argv) => spawnSync("pnpm", argv, { stdio: "inherit" }).status ?? 1;

const server = pnpm(["--filter", "@tracker/bench", "run", "bench", ...args]);
if (server !== 0 || args.includes("--help") || args.includes("-h")) process.exit(server);
if (args.includes("--only")) {
  process.stdout.write("web UI bench skipped (--only picks server scenarios; run `pnpm bench:web` for it)\n");
  process.exit(0);
}
const webArgs = args.filter((a) => a === "--quick" || a === "--no-write");
if (args.includes("--out") && !webArgs.includes("--no-write")) webArgs.push("--no-write");
const web = pnpm(["--filter", "@tracker/web-bench", "run", "bench", ...webArgs]);
if (web !== 0) process.exit(web);
// spec-diff start-up (packages/spec-diff/scripts/bench.mjs): its own section of docs/benchmarks.md.
process.exit(pnpm(["--filter", "@tracker-ml/spec-diff", "run", "bench", ...webArgs]));
