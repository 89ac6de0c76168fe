/**
 * pnpm --filter @tracker/web-bench bench:charts-trace [--web <dist>] [--navigations N]: where the
 * time of one navigation to the charts view (100 runs x 8 metrics x 1,000 steps) goes. After
 * warm-up navigations, a navigation is traced in Chromium (devtools.timeline and a sampled CPU
 * profile of the page) and printed as a timeline in ms since navigation start: the API requests
 * (sent, answered), the main thread's tasks over 5 ms with what they were (script evaluation,
 * compile, React work, uPlot drawing, layout, paint) and the page's JavaScript self time by
 * source file; plus the CPU the server process and PostgreSQL spent meanwhile.
 */
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "@tracker/testing/chromium";
import { ownCpuMs, procStats } from "@tracker/testing/proc";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { TrackerClient } from "@tracker-ml/client";
import { loadConfig, startServer } from "@tracker/server";
import { Command } from "commander";
import { chromium } from "playwright-core";
import { CHARTS_VIEW_SIZE, chartsViewInteractive, chartsViewRequests, seedChartsView } from "./charts-view.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const options = new Command("pnpm --filter @tracker/web-bench bench:charts-trace")
  .option("--web <dir>", "the build of the UI to trace", path.resolve(here, "../../../apps/web/dist"))
  .option("--navigations <n>", "navigations traced (after the warm-up ones)", "1")
  .option("--warm-ups <n>", "untraced navigations first (0: trace the first, cold one)", "2")
  .option("--out <dir>", "keep the raw trace and CPU profile here")
  .parse(
    process.argv.slice(2).filter((a) => a !== "--"),
    { from: "user" },
  )
  .opts<{ web: string; navigations: string; warmUps: string; out?: string }>();

const databaseUrl = process.env.TEST_DATABASE_URL;
if (!databaseUrl) throw new Error("TEST_DATABASE_URL is not set (run through scripts/with-postgres.sh)");

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: Record<string, unknown> };
}

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** CPU seconds (user + system) of the machine's PostgreSQL processes (by command name) so far. */
function cpuOfPostgres(): number {
  return (
    procStats()
      .filter((p) => p.name === "postgres")
      .reduce((sum, p) => sum + ownCpuMs(p), 0) / 1000
  );
}

/** The trace events a main-thread task is summed up by (declared before the top-level run below uses it). */
const SHOWN_EVENTS = new Set([
  "Layout",
  "UpdateLayoutTree",
  "Paint",
  "ParseHTML",
  "EvaluateScript",
  "v8.compile",
  "v8.compileModule",
  "v8.evaluateModule",
  "FunctionCall",
  "TimerFire",
  "FireAnimationFrame",
  "EventDispatch",
]);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "charts-view-trace-"));
const server = await startServer(
  loadConfig({}, { port: 0, host: "127.0.0.1", dataDir, databaseUrl, webDir: options.web, logLevel: "silent" }),
);
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
try {
  console.log(
    `load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(", ")}`,
  );
  const { experimentId } = await seedChartsView(new TrackerClient({ baseUrl: server.url }), CHARTS_VIEW_SIZE);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  for (let i = 0; i < Number(options.warmUps); i++)
    console.log(
      `warm-up: ${(await chartsViewInteractive(page, server.url, experimentId, CHARTS_VIEW_SIZE.runs)).toFixed(0)} ms`,
    );
  const cdp = await context.newCDPSession(page);
  for (let n = 0; n < Number(options.navigations); n++) {
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
    await cdp.send("Profiler.start");
    await browser.startTracing(page, {
      categories: ["devtools.timeline", "blink.user_timing", "v8.execute", "disabled-by-default-devtools.timeline"],
    });
    const cpu0 = process.cpuUsage();
    const pg0 = cpuOfPostgres();
    const ms = await chartsViewInteractive(page, server.url, experimentId, CHARTS_VIEW_SIZE.runs);
    const cpu = process.cpuUsage(cpu0);
    const pg = cpuOfPostgres() - pg0;
    const trace = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] };
    const { profile } = (await cdp.send("Profiler.stop")) as unknown as { profile: CpuProfile };
    if (options.out) {
      fs.mkdirSync(options.out, { recursive: true });
      fs.writeFileSync(path.join(options.out, `trace-${n}.json`), JSON.stringify(trace));
      fs.writeFileSync(path.join(options.out, `profile-${n}.cpuprofile`), JSON.stringify(profile));
    }
    console.log(`\n== traced navigation ${n + 1}: cards in view drawn at ${ms.toFixed(0)} ms`);
    console.log(
      `server process CPU ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms (node: HTTP, JSON; includes this script), PostgreSQL CPU ${(pg * 1000).toFixed(0)} ms`,
    );
    console.log(`requests: ${await chartsViewRequests(page)}`);
    printTimeline(trace.traceEvents, profile);
  }
} finally {
  await browser.close();
  await server.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

/** The renderer's main-thread tasks and the page's JS self time, in ms since navigation start. */
function printTimeline(events: TraceEvent[], profile: CpuProfile): void {
  const threadNames = new Map<string, string>();
  for (const e of events)
    if (e.ph === "M" && e.name === "thread_name") threadNames.set(`${e.pid}:${e.tid}`, e.args?.name ?? "");
  const nav = events.filter((e) => e.name === "navigationStart").at(-1);
  if (!nav) throw new Error("no navigationStart in the trace");
  const main = `${nav.pid}:${nav.tid}`;
  const t = (ts: number) => (ts - nav.ts) / 1000;
  const onMain = events.filter((e) => `${e.pid}:${e.tid}` === main && e.ph === "X" && e.ts >= nav.ts);
  const tasks = onMain.filter((e) => e.name === "RunTask" && (e.dur ?? 0) > 5000);
  const inside = (task: TraceEvent) =>
    onMain.filter((e) => e !== task && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= task.ts + (task.dur ?? 0));
  console.log(`main-thread tasks over 5 ms (${threadNames.get(main)}):`);
  let busy = 0;
  for (const task of tasks) {
    busy += (task.dur ?? 0) / 1000;
    const kinds = new Map<string, number>();
    for (const e of inside(task)) {
      const label =
        e.name === "EvaluateScript" || e.name === "v8.compile" || e.name === "v8.compileModule"
          ? `${e.name} ${String(e.args?.data?.url ?? "")
              .split("/")
              .pop()}`
          : e.name === "FunctionCall"
            ? `FunctionCall ${String(e.args?.data?.functionName ?? "")}`
            : e.name;
      if (SHOWN_EVENTS.has(e.name)) kinds.set(label, (kinds.get(label) ?? 0) + (e.dur ?? 0) / 1000);
    }
    const top = [...kinds]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 5)
      .map(([k, v]) => `${k} ${v.toFixed(0)}`)
      .join(", ");
    console.log(`  ${t(task.ts).toFixed(0)}+${((task.dur ?? 0) / 1000).toFixed(0)} ms: ${top}`);
  }
  console.log(`  main thread busy in tasks over 5 ms: ${busy.toFixed(0)} ms`);
  const sends = events.filter((e) => e.name === "ResourceSendRequest" && e.ts >= nav.ts);
  const finishes = new Map(
    events.filter((e) => e.name === "ResourceFinish").map((e) => [String(e.args?.data?.requestId), e.ts]),
  );
  console.log("resources (sent → finished, ms):");
  for (const s of sends) {
    const url = String(s.args?.data?.url ?? "");
    const short = url
      .replace(/^https?:\/\/[^/]+/, "")
      .replace("/api/2.0/tracker/", "")
      .split("?")[0];
    const done = finishes.get(String(s.args?.data?.requestId));
    console.log(`  ${t(s.ts).toFixed(0)} → ${done ? t(done).toFixed(0) : "?"} ${short}`);
  }
  // JS self time by source file and function from the CPU profile, and by 100 ms window.
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfBy = new Map<string, number>();
  const windows = new Map<number, Map<string, number>>();
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i] ?? 0;
    const when = t(at);
    if (when < 0) continue;
    const node = byId.get(profile.samples[i]!)!;
    const file = node.callFrame.url.split("/").pop() || `(${node.callFrame.functionName || "program"})`;
    const fn = `${file} ${node.callFrame.functionName || "(anonymous)"}`;
    const delta = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    selfBy.set(fn, (selfBy.get(fn) ?? 0) + delta);
    const w = Math.floor(when / 100) * 100;
    const win = windows.get(w) ?? new Map<string, number>();
    win.set(file, (win.get(file) ?? 0) + delta);
    windows.set(w, win);
  }
  console.log("page JS self time by function (top 25, ms):");
  for (const [fn, ms] of [...selfBy].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`  ${ms.toFixed(1)} ${fn}`);
  console.log("page CPU by 100 ms window and file (ms):");
  for (const [w, files] of [...windows].sort((a, b) => a[0] - b[0]))
    console.log(
      `  ${w}-${w + 100}: ${[...files]
        .filter(([f]) => f !== "(idle)")
        .sort((a, b) => b[1] - a[1])
        .slice(0, 5)
        .map(([f, ms]) => `${f} ${ms.toFixed(0)}`)
        .join(", ")}`,
    );
}
