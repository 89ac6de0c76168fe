import { createRequire } from "node:module";
import express, { type ErrorRequestHandler } from "express";
import { afterEach, describe, expect, it, vi } from "vitest";
import { inSeries } from "./in-series.js";
import { operationRouter } from "./operation-router.js";
import { validatorMiddlewares, validatorSteps } from "./validator-steps.js";
import { WEB_UI_FIRST_REQUESTS, warmRequestValidators, type Later } from "./validator-warm-up.js";

interface RequestValidatorClass {
  prototype: { buildMiddleware: (...args: unknown[]) => unknown };
}
const { RequestValidator } = createRequire(import.meta.url)(
  "express-openapi-validator/dist/middlewares/openapi.request.validator.js",
) as { RequestValidator: RequestValidatorClass };

const answerError: ErrorRequestHandler = (err: { status?: number; message: string }, _req, res, _next) => {
  res.status(err.status ?? 500).json({ message: err.message });
};

/** An app of ext.yaml's validator steps that answers what passed with "ok"; the steps as one, for the warm-up. */
function extApp() {
  const steps = inSeries(validatorSteps(validatorMiddlewares("ext", false)));
  const app = express();
  app.use(express.json({ type: () => true }));
  app.use(steps);
  app.use((_req, res) => {
    res.json({ ok: true });
  });
  app.use(answerError);
  return { app, steps };
}

/** Answers to `paths` (GETs) as status and text, and how many request validators were built meanwhile. */
async function answers(app: express.Express, paths: string[]): Promise<{ answers: string[]; built: number }> {
  const build = vi.spyOn(RequestValidator.prototype, "buildMiddleware");
  const server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  const { port } = server.address() as { port: number };
  try {
    const out: string[] = [];
    for (const path of paths) {
      const res = await fetch(`http://127.0.0.1:${port}${path}`);
      out.push(`${res.status} ${await res.text()}`);
    }
    return { answers: out, built: build.mock.calls.length };
  } finally {
    build.mockRestore();
    await new Promise((r) => server.close(r));
  }
}

const now: Later = (work) => work();
const KEYS = "/api/2.0/tracker/runs/keys";
const REQUESTS = [`${KEYS}?experiment_ids=1`, `${KEYS}`, `${KEYS}?experiment_ids=x`];

describe("warmRequestValidators", () => {
  afterEach(() => vi.restoreAllMocks());

  it("builds a request's validator ahead, and the requests are answered as without it", async () => {
    const cold = extApp();
    const unwarmed = await answers(cold.app, REQUESTS);
    // Without the warm-up, the first request builds the validator.
    expect(unwarmed.built).toBe(1);

    const warm = extApp();
    const router = operationRouter();
    await warmRequestValidators(
      warm.app,
      { documentOf: router, steps: (spec) => (spec === "ext" ? warm.steps : undefined) },
      [{ method: "GET", path: KEYS }],
      now,
    ).done;
    const warmed = await answers(warm.app, REQUESTS);
    expect(warmed.built).toBe(0);
    expect(warmed.answers).toEqual(unwarmed.answers);
  });

  it("stops before the requests it has not begun", async () => {
    const { app, steps } = extApp();
    const queued: (() => void)[] = [];
    const warming = warmRequestValidators(
      app,
      { documentOf: operationRouter(), steps: () => steps },
      WEB_UI_FIRST_REQUESTS,
      (work) => queued.push(work),
    );
    warming.stop();
    for (const work of queued.splice(0)) work();
    await warming.done;
    expect((await answers(app, REQUESTS)).built).toBe(1);
  });

  it("knows the document of every request it warms", () => {
    const router = operationRouter();
    for (const { method, path } of WEB_UI_FIRST_REQUESTS)
      expect(router(method, path), `${method} ${path}`).toBeDefined();
  });
});
