/**
 * pnpm --filter @tracker/web-bench bench:charts-view: the runs page's charts view alone (100 runs x
 * 8 metrics x 1,000 steps), the same scenario `pnpm bench:web` runs; prints only. Each navigation
 * prints its API requests (start-end, size), its long tasks and when the first and last card in
 * view were drawn. `--before <dir>` also serves another build of the UI (e.g. an older commit's
 * apps/web/dist) from a second server on the same database and measures both, navigation by
 * navigation in turn, so the two sets of figures share the machine's load. With `--before-server
 * <file>` (e.g. an older commit's apps/server/dist/index.js) that UI is served by that build of
 * the server, on a second database of the same cluster seeded alike, so that a server change is
 * measured too. Each build's first `--warm-ups` navigations (1 by default: the cold one, on a
 * freshly started server with empty browser caches) are printed apart and not counted; the figure
 * is the median of the next `--navigations` (5), and with --before their ratio to the other
 * build's, per round and of the medians.
 */
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "@tracker/testing/chromium";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { TrackerClient } from "@tracker-ml/client";
import { loadConfig, startServer } from "@tracker/server";
import { chromium, type Page } from "playwright-core";
import {
  askedPointsPerRun,
  cardRequestTimes,
  CHARTS_VIEW_QUICK,
  CHARTS_VIEW_SIZE,
  chartsViewInteractive,
  chartsViewProfile,
  chartsViewRequests,
  chartsViewScroll,
  recordLongTasks,
  seedChartsView,
} from "./charts-view.js";
import { chartsViewCommand, parseChartsViewArgs } from "./options.js";
import { median, percentile } from "./stats.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const webDir = path.resolve(here, "../../../apps/web/dist");
const args = parseChartsViewArgs(process.argv.slice(2), chartsViewCommand());
const size = args.quick ? CHARTS_VIEW_QUICK : CHARTS_VIEW_SIZE;

const databaseUrl = process.env.TEST_DATABASE_URL;
if (!databaseUrl) throw new Error("TEST_DATABASE_URL is not set (run through scripts/with-postgres.sh)");
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(", ");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "charts-view-bench-"));
type ServerModule = Pick<typeof import("@tracker/server"), "loadConfig" | "startServer">;
const serveWith = (server: ServerModule, dir: string, url: string) =>
  server.startServer(
    server.loadConfig({}, { port: 0, host: "127.0.0.1", dataDir, databaseUrl: url, webDir: dir, logLevel: "silent" }),
  );
const servers = [await serveWith({ loadConfig, startServer }, webDir, databaseUrl)];
const builds = [{ name: "this build", url: servers[0]!.url }];
// --before-server: the other server gets a database of its own in the same cluster (its
// migrations may differ from this build's), seeded alike.
const beforeDatabase = args.beforeServer ? `charts_view_before_${process.pid}` : undefined;
if (args.before) {
  let url = databaseUrl;
  let module: ServerModule = { loadConfig, startServer };
  if (beforeDatabase && args.beforeServer) {
    await servers[0]!.database.knex.raw(`CREATE DATABASE ${beforeDatabase}`);
    const parsed = new URL(databaseUrl);
    parsed.pathname = `/${beforeDatabase}`;
    url = parsed.toString();
    module = (await import(pathToFileURL(path.resolve(args.beforeServer)).href)) as ServerModule;
  }
  const before = await serveWith(module, path.resolve(args.before), url);
  servers.push(before);
  const server = beforeDatabase ? ` and server ${args.beforeServer}` : "";
  builds.unshift({ name: `before (${args.before}${server})`, url: before.url });
}
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
try {
  console.log(`load average at start: ${load()}; ${os.cpus().length} vCPU`);
  const t = performance.now();
  // One data set per database: every build's when the servers have their own, else the first.
  const seeded = new Map<string, { experimentId: string; runIds: string[] }>();
  for (const build of beforeDatabase ? builds : builds.slice(0, 1))
    seeded.set(build.url, await seedChartsView(new TrackerClient({ baseUrl: build.url }), size));
  const dataOf = (build: (typeof builds)[number]) => seeded.get(build.url) ?? [...seeded.values()][0]!;
  console.log(
    `seeded ${size.runs} runs x ${size.metrics} metrics x ${size.steps} steps ${seeded.size === 1 ? "once" : `${seeded.size} times`} in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );
  const pages: Page[] = [];
  for (const _ of builds) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await recordLongTasks(context);
    pages.push(await context.newPage());
  }
  const warmUps = builds.map((): number[] => []);
  const interactive = builds.map((): number[] => []);
  // Each counted navigation is followed by a scroll through all cards (the cards below are still
  // being fetched and drawn): the frames of those scrolls together.
  const frames = builds.map((): number[] => []);
  for (let i = 0; i < args.warmUps + args.navigations; i++)
    for (const [b, build] of builds.entries()) {
      const page = pages[b]!;
      const ms = await chartsViewInteractive(page, build.url, dataOf(build).experimentId, size.runs);
      (i < args.warmUps ? warmUps : interactive)[b]!.push(ms);
      const label =
        i < args.warmUps ? `warm-up ${i + 1}${i === 0 ? " (cold)" : ""}` : `navigation ${i - args.warmUps + 1}`;
      console.log(`  ${build.name}, ${label}: ${ms.toFixed(0)} ms; ${await chartsViewProfile(page)}`);
      console.log(`    ${await chartsViewRequests(page)}`);
      if (i >= args.warmUps) frames[b]!.push(...(await chartsViewScroll(page)));
    }
  const list = (values: readonly number[]) => values.map((v) => v.toFixed(0)).join(", ");
  for (const [b, build] of builds.entries()) {
    const scrolled = frames[b]!;
    const times = interactive[b]!;
    const notCounted = warmUps[b]!.length > 0 ? `; not counted, first: ${list(warmUps[b]!)}` : "";
    console.log(
      `${build.name}: charts view ${size.runs} x ${size.metrics} x ${size.steps}: cards in view drawn ${median(times).toFixed(0)} ms after navigation (median of ${times.length}: ${list(times)}; range ${Math.min(...times).toFixed(0)}-${Math.max(...times).toFixed(0)}${notCounted}); scroll through all cards after each navigation: ${scrolled.length} frames, p95 ${percentile(scrolled, 95).toFixed(1)} ms, max ${Math.max(...scrolled).toFixed(1)} ms, ${scrolled.filter((f) => f > 20).length} over 20 ms`,
    );
  }
  if (builds.length === 2) {
    // Within one run, round by round (the two builds' navigations of a round ran one after the other).
    const [before, after] = interactive as [number[], number[]];
    const ratios = after.map((v, i) => v / before[i]!);
    console.log(
      `this build / before: ${(median(after) / median(before)).toFixed(2)} (medians); per round ${ratios.map((r) => r.toFixed(2)).join(", ")} (median ${median(ratios).toFixed(2)})`,
    );
  }
  // The server's part alone: one card's request as each build asks for it, alone and all cards at once.
  for (const [b, build] of builds.entries())
    console.log(
      `${build.name}: ${await cardRequestTimes(build.url, dataOf(build).runIds, size.metrics, await askedPointsPerRun(pages[b]!))}`,
    );
  console.log(`load average at the end: ${load()}`);
} finally {
  await browser.close();
  for (const server of servers.slice(1)) await server.close();
  if (beforeDatabase) await servers[0]!.database.knex.raw(`DROP DATABASE IF EXISTS ${beforeDatabase}`);
  await servers[0]!.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
