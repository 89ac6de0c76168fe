// Debian's Chromium driven by playwright-core (the registry's browser builds cannot be downloaded here).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "@tracker/testing/chromium";

export const CHROMIUM = CHROMIUM_PATH;

const here = path.dirname(fileURLToPath(import.meta.url));

/** The built UI the test servers serve (`pnpm build` in apps/web, or TRACKER_WEB_DIR). */
export const webDir = process.env.TRACKER_WEB_DIR ?? path.resolve(here, "../dist");

/**
 * Where the tests write their screenshots: under test-results (gitignored), or with
 * UPDATE_SCREENSHOTS=1 (`pnpm screenshots`) to docs/screenshots, the ones the README shows.
 */
export const screenshots =
  process.env.UPDATE_SCREENSHOTS === "1"
    ? path.resolve(here, "../../../docs/screenshots")
    : path.resolve(here, "../test-results/screenshots");

/** Launches headless Chromium with flags that keep it off the network (closed here) and the GPU. */
export async function launchBrowser(): Promise<{ browser: Browser; close(): Promise<void> }> {
  if (!fs.existsSync(CHROMIUM))
    throw new Error(`No Chromium at ${CHROMIUM}: install it with 'apt-get install -y chromium'`);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [...CHROMIUM_ARGS],
  });
  return {
    browser,
    async close() {
      await browser.close();
    },
  };
}

/** Fails at once, saying how to fix it, when the UI the tests serve is not built. */
export function requireBuiltUi(): void {
  if (!fs.existsSync(path.join(webDir, "index.html")))
    throw new Error("apps/web/dist is missing: run `pnpm build` first");
}

/** Saves the page's viewport as `<name>.png` in the screenshot folder (scrolled to the top first with `top`). */
export async function saveScreenshot(page: Page, name: string, options: { top?: boolean } = {}): Promise<void> {
  fs.mkdirSync(screenshots, { recursive: true });
  if (options.top) await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(screenshots, `${name}.png`), fullPage: false });
}

export interface WatchedPage {
  page: Page;
  context: BrowserContext;
  /** Console errors and page errors seen so far (CSP violations included). */
  problems: string[];
}

/** A page in a fresh context (fresh sessionStorage), recording console errors and uncaught errors. */
export async function openPage(browser: Browser, colorScheme: "light" | "dark" = "light"): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() !== "error") return;
    const at = message.location();
    // Where it happened: the page, and the script line when the browser names one.
    problems.push(`${message.text()} [page ${page.url()}${at.url ? `, ${at.url}:${at.lineNumber}` : ""}]`);
  });
  page.on("pageerror", (error) => problems.push(error.message));
  return { page, context, problems };
}

/** Opens `url` in a fresh page (see openPage): light or dark, at a phone's width when `width` is given. */
export async function openAt(
  browser: Browser,
  url: string,
  options: { scheme?: "light" | "dark"; width?: number } = {},
): Promise<WatchedPage> {
  const watched = await openPage(browser, options.scheme ?? "light");
  if (options.width) await watched.page.setViewportSize({ width: options.width, height: 844 });
  await watched.page.goto(url);
  return watched;
}
