// Start-up benchmark of `tracker server` on the embedded database (issue: ready in < 3 s on a
// new, empty data dir; < 2 s on an existing one). Starts the built CLI as users run it, polls
// GET /health, and reports the time from spawn to the first 200, per case, over several runs.
// Usage: node apps/server/scripts/startup-bench.mjs [runs]   (after `pnpm build`)
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const cli = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "dist", "cli.js");
const runs = Number(process.argv[2] ?? 5);

const freePort = () =>
  new Promise((resolve) => {
    const srv = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });

async function startOnce(dataDir) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [cli, "server", "--port", String(port), "--backend-store-uri", dataDir], {
    stdio: "ignore",
    env: { ...process.env, DATABASE_URL: "", LOG_LEVEL: "warn" },
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
      try {
        const res = await fetch(`http://127.0.0.1:${port}/health`);
        if (res.status === 200) return performance.now() - started;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 20));
      if (performance.now() - started > 60_000) throw new Error("server not ready after 60 s");
    }
  } finally {
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
  }
}

const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)], min: s[0], max: s[s.length - 1] };
};

const fresh = [];
const existing = [];
for (let i = 0; i < runs; i++) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracker-startup-"));
  fresh.push(await startOnce(dir));
  existing.push(await startOnce(dir));
  fs.rmSync(dir, { recursive: true, force: true });
}
const fmt = (x) => `${(x / 1000).toFixed(2)} s`;
const report = { runs, fresh: stats(fresh), existing: stats(existing) };
console.log(`startup on a new empty data dir: median ${fmt(report.fresh.median)} (min ${fmt(report.fresh.min)}, max ${fmt(report.fresh.max)}); target < 3 s`);
console.log(`startup on an existing data dir: median ${fmt(report.existing.median)} (min ${fmt(report.existing.min)}, max ${fmt(report.existing.max)}); target < 2 s`);
if (process.env.BENCH_JSON) fs.writeFileSync(process.env.BENCH_JSON, JSON.stringify(report, null, 2));
