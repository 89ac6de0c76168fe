import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import express, { type Request, type RequestHandler } from "express";

/**
 * The web UI (apps/web, built by Vite to static files) served at `/`: its assets from the build
 * folder, and `index.html` for every other browser navigation outside the API, so client-side
 * routes survive a reload. `/api/...`, `/ajax-api/...`, `/docs`, `/health` and the artifact
 * endpoints keep their meaning. Served before authentication: the page itself holds no data and
 * asks for the token when the API answers 401.
 */

/** The UI's policy: scripts, styles and fetches from this origin only; images may be data: or blob:. */
export const WEB_UI_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; " +
  "font-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/** Path prefixes that never fall back to the UI's index.html. */
const RESERVED = /^\/(api|ajax-api|docs|health|get-artifact|model-versions|assets)(\/|$)/;

/** The paths the router's `/assets` mount takes (a mount path matches in any letter case). */
const ASSETS_MOUNT = /^\/assets(\/|$)/i;

/**
 * Whether a GET outside the API is a page load. Browsers navigating ask for `text/html` by name:
 * any path outside the API then gets the page (client-side routes survive a reload), unless JSON
 * is preferred (`application/json`, or JSON ranked above HTML by quality or specificity). A client
 * that takes anything (the any-type wildcard of curl, fetch and some prefetches, or no Accept
 * header) gets the page only at `/`: elsewhere it keeps the API's JSON 404, so a script that
 * mistypes an endpoint is told so in JSON rather than handed a web page.
 */
export function wantsPage(req: Pick<Request, "accepts" | "path" | "headers">): boolean {
  if (req.accepts(["html", "json"]) !== "html") return false;
  if (req.path === "/") return true;
  return namesHtml(req.headers.accept ?? "");
}

/** Whether an Accept header names HTML itself (`text/html`, `application/xhtml+xml` or `text/*`, with a quality above 0). */
export function namesHtml(accept: string): boolean {
  return accept.split(",").some((range) => {
    const [type = "", ...params] = range.split(";").map((part) => part.trim().toLowerCase());
    const quality = params.find((p) => p.startsWith("q="));
    return (
      ["text/html", "application/xhtml+xml", "text/*"].includes(type) &&
      (quality === undefined || Number(quality.slice(2)) > 0)
    );
  });
}

/** apps/web/dist, found from this file's place in apps/server (src/http or dist/http). */
export function defaultWebDirectory(): string {
  return fileURLToPath(new URL("../../../web/dist", import.meta.url));
}

/** index.html with the server's namespace in a meta tag (the UI reads system tags `<ns>.user`, ...). */
function renderIndex(html: string, namespace: string): string {
  const meta = `<meta name="tracker-namespace" content="${namespace}">`;
  return html.replace(/<meta name="tracker-namespace"[^>]*>/, meta);
}

function uiHeaders(): RequestHandler {
  return (_req, res, next) => {
    res.setHeader("Content-Security-Policy", WEB_UI_CSP);
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("X-Frame-Options", "DENY");
    res.setHeader("Referrer-Policy", "no-referrer");
    next();
  };
}

/**
 * The router serving the UI from `directory`; when the folder holds no build, browser navigations
 * to `/` get a short page saying how to build it (the API works either way).
 */
export function webUi(directory: string, namespace: string): RequestHandler {
  const router = express.Router();
  const indexFile = path.join(directory, "index.html");
  const built = fs.existsSync(indexFile);
  let index: string | undefined;
  const indexHtml = () => (index ??= renderIndex(fs.readFileSync(indexFile, "utf8"), namespace));

  router.use(
    "/assets",
    uiHeaders(),
    express.static(path.join(directory, "assets"), { immutable: true, maxAge: "1y", index: false, fallthrough: false }),
  );
  router.use((req, res, next) => {
    if ((req.method !== "GET" && req.method !== "HEAD") || RESERVED.test(req.path)) {
      next();
      return;
    }
    const file = path.join(directory, path.normalize(req.path));
    if (
      built &&
      req.path !== "/" &&
      file.startsWith(directory + path.sep) &&
      /\.[a-z0-9]+$/i.test(req.path) &&
      fs.existsSync(file) &&
      fs.statSync(file).isFile()
    ) {
      uiHeaders()(req, res, () => res.sendFile(file));
      return;
    }
    if (!wantsPage(req)) {
      next();
      return;
    }
    uiHeaders()(req, res, () => {
      res.setHeader("Cache-Control", "no-cache");
      if (!built) {
        res
          .status(200)
          .type("html")
          .send(
            "<!doctype html><title>tracker</title><p>The web UI is not built: run <code>pnpm build</code> (or <code>pnpm start</code>). The API is at <code>/api/2.0/tracker/...</code>.</p>",
          );
        return;
      }
      res.status(200).type("html").send(indexHtml());
    });
  });
  // Most requests are API calls, which the router would only pass on, and a router passes a
  // request on from the end of its stack one turn of the event loop later (setImmediate): those
  // that neither its assets mount nor its page handler takes go on at once instead.
  return (req, res, next) => {
    if (ASSETS_MOUNT.test(req.path) || ((req.method === "GET" || req.method === "HEAD") && !RESERVED.test(req.path))) {
      router(req, res, next);
      return;
    }
    next();
  };
}
