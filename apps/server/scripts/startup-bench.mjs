// Start-up benchmark of `tracker server` on each embedded database: the default, PostgreSQL from
// the npm binaries (targets: a new data dir ready in < 10 s, an existing one in < 2 s), and PGlite
// (< 3 s and < 2 s). Starts the built CLI as users run it (one process), polls GET /health, and
// reports the time from spawn to the first 200, per case, over several runs.
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

async function startOnce(dataDir, engine) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [cli, "server", "--port", String(port), "--backend-store-uri", dataDir], {
    stdio: "ignore",
    env: {
      ...process.env,
      DATABASE_URL: "",
      LOG_LEVEL: "warn",
      TRACKER_WORKERS: "1",
      TRACKER_EMBEDDED_DATABASE: engine,
    },
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

const fmt = (x) => `${(x / 1000).toFixed(2)} s`;
const TARGETS = { postgres: { fresh: 10_000, existing: 2_000 }, pglite: { fresh: 3_000, existing: 2_000 } };
const report = { runs, engines: {} };
for (const engine of ["postgres", "pglite"]) {
  const fresh = [];
  const existing = [];
  for (let i = 0; i < runs; i++) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracker-startup-"));
    // As root, the embedded PostgreSQL runs as another user, who must be able to enter the folder.
    fs.chmodSync(dir, 0o755);
    fresh.push(await startOnce(dir, engine));
    existing.push(await startOnce(dir, engine));
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const result = { fresh: stats(fresh), existing: stats(existing), targets: TARGETS[engine] };
  report.engines[engine] = result;
  for (const which of ["fresh", "existing"]) {
    const r = result[which];
    console.log(
      `${engine}: startup on ${which === "fresh" ? "a new empty" : "an existing"} data dir: median ${fmt(r.median)} (min ${fmt(r.min)}, max ${fmt(r.max)}); target < ${fmt(TARGETS[engine][which])}`,
    );
  }
}
if (process.env.BENCH_JSON) fs.writeFileSync(process.env.BENCH_JSON, JSON.stringify(report, null, 2));
