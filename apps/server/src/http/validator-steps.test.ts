import { createRequire } from "node:module";
import express, { type ErrorRequestHandler, type Request, type RequestHandler } from "express";
import { describe, expect, it } from "vitest";
import { MEMO_LIMIT, mayReceiveFiles, validatorMiddlewares, validatorSteps } from "./validator-steps.js";
import type { SpecName } from "./revisions.js";

interface Metadata {
  schema?: { operationId?: string };
  pathParams: Record<string, string>;
  [key: string]: unknown;
}
type Described = Request & { openapi?: Metadata };

/** What the validator left on the request, as JSON. */
function described(request: Request) {
  const req = request as Described;
  const { schema, ...rest } = req.openapi ?? { pathParams: {} };
  return {
    operationId: schema?.operationId,
    openapi: req.openapi === undefined ? undefined : rest,
    paramsAreThePathParams: req.params === req.openapi?.pathParams,
    params: req.params,
    query: req.query,
    body: req.body as unknown,
  };
}

const answerError: ErrorRequestHandler = (
  err: { status?: number; message: string; errors?: unknown },
  _req,
  res,
  _next,
) => {
  res.status(err.status ?? 500).json({ message: err.message, errors: err.errors });
};

/** Sends each request in turn to an app made of `steps`; answers as status and JSON text. */
async function answersOf(steps: RequestHandler[], requests: Array<[string, string, object?]>): Promise<string[]> {
  const app = express();
  app.use(express.json({ type: () => true }));
  app.use(steps);
  app.use((req, res) => {
    res.json(described(req));
  });
  app.use(answerError);
  const server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  const { port } = server.address() as { port: number };
  try {
    const out: string[] = [];
    for (const [method, path, body] of requests) {
      const res = await fetch(`http://127.0.0.1:${port}${path}`, {
        method,
        headers: body ? { "Content-Type": "application/json" } : {},
        body: body ? JSON.stringify(body) : undefined,
      });
      out.push(`${method} ${path} -> ${res.status} ${await res.text()}`);
    }
    return out;
  } finally {
    await new Promise((r) => server.close(r));
  }
}

const REQUESTS: Record<SpecName, Array<[string, string, object?]>> = {
  a: [],
  b: [],
  auth: [],
  c: [
    ["POST", "/api/2.0/tracker/runs/log-metric", { run_id: "r1", key: "k", value: 1, timestamp: 1 }],
    ["POST", "/api/2.0/tracker/runs/log-metric", { run_id: "r1", value: 1, timestamp: 1 }],
    ["POST", "/api/2.0/tracker/runs/log-metric", { run_id: "r1", key: "k", value: "x", timestamp: 1 }],
    ["GET", "/api/2.0/tracker/runs/get?run_id=abc"],
    ["GET", "/api/2.0/tracker/runs/get?run_id=abc&extra=1"],
    ["GET", "/api/2.0/tracker/runs/get/?run_id=abc"],
    ["GET", "/API/2.0/Tracker/runs/get?run_id=abc"],
    ["GET", "/api/2.0/tracker/runs/log-metric"],
    ["POST", "/api/2.0/tracker/nope", {}],
    // Writes: JSON bodies to operations without parameters (the request step's shortcut), valid and not.
    ["POST", "/api/2.0/tracker/runs/log-metric", { run_id: "r1", key: "k", value: 1, timestamp: 1, step: 2 }],
    ["POST", "/api/2.0/tracker/runs/log-metric", { run_id: "r1", key: "k", value: 1, timestamp: "1", extra: true }],
    ["POST", "/api/2.0/tracker/runs/log-metric", { run_id: 1, key: ["k"], value: {}, timestamp: -1.5 }],
    ["POST", "/api/2.0/tracker/runs/log-metric", {}],
    ["POST", "/api/2.0/tracker/runs/log-metric?run_id=r1", { run_id: "r1", key: "k", value: 1, timestamp: 1 }],
    [
      "POST",
      "/api/2.0/tracker/runs/log-batch",
      {
        run_id: "r1",
        metrics: [{ key: "m", value: 1, timestamp: 1, step: 0 }],
        params: [{ key: "p", value: "v" }],
        tags: [{ key: "t", value: "v" }],
      },
    ],
    ["POST", "/api/2.0/tracker/runs/log-batch", { run_id: "r1", metrics: [{ key: "m", value: "NaN" }] }],
    ["POST", "/api/2.0/tracker/runs/log-batch", { run_id: "r1", params: "p" }],
    ["POST", "/api/2.0/tracker/runs/create", { experiment_id: "1", run_name: "n", tags: [{ key: "k", value: "v" }] }],
    ["POST", "/api/2.0/tracker/runs/create", { experiment_id: 1, start_time: "soon", tags: {} }],
    ["POST", "/api/2.0/tracker/runs/log-parameter", { run_id: "r1", key: "p", value: "v" }],
    ["POST", "/api/2.0/tracker/runs/log-parameter", { run_id: "r1", key: "p" }],
    ["POST", "/api/2.0/tracker/experiments/create", { name: "e", tags: [{ key: "k" }] }],
  ],
  ext: [
    ["GET", "/api/2.0/tracker/logged-models/m-1"],
    ["GET", "/api/2.0/tracker/logged-models/m-2"],
    ["GET", "/health"],
  ],
};

describe("validatorSteps", () => {
  it("knows the validator's steps by name (a renamed step would only lose the shortcut)", () => {
    expect(validatorMiddlewares("c", false).map((step) => step.name)).toEqual(
      expect.arrayContaining(["pathParamsMiddleware", "metadataMiddleware", "securityMiddleware", "requestMiddleware"]),
    );
  });

  it("leaves out the file-upload step where the document has no file uploads", () => {
    expect(
      mayReceiveFiles({ paths: { "/a": { post: { requestBody: { content: { "application/json": {} } } } } } }),
    ).toBe(false);
    expect(
      mayReceiveFiles({ paths: { "/a": { post: { requestBody: { content: { "multipart/form-data": {} } } } } } }),
    ).toBe(true);
    expect(mayReceiveFiles({ components: { schemas: { File: { type: "string", format: "binary" } } } })).toBe(true);
    const names = (spec: "c" | "ext", mlflow: boolean) => validatorMiddlewares(spec, mlflow).map((step) => step.name);
    // Revision C uploads no files; ext's artifact upload takes a binary body.
    expect(names("c", false)).not.toContain("multipartMiddleware");
    expect(names("c", true)).not.toContain("multipartMiddleware");
    expect(names("ext", false)).toContain("multipartMiddleware");
  });

  it("takes over the request step (the validator's instance and its builder were found)", () => {
    const steps = validatorMiddlewares("c", false);
    const request = steps.find((step) => step.name === "requestMiddleware");
    expect(request).toBeDefined();
    expect(validatorSteps(steps)).not.toContain(request);
  });

  for (const spec of ["c", "ext"] as const) {
    for (const mlflow of [false, true]) {
      it(`leaves requests as the validator's own steps do, again and again (${spec}, ${mlflow ? "MLflow's" : "tracker's"} paths)`, async () => {
        const twice = [...REQUESTS[spec], ...REQUESTS[spec], ...REQUESTS[spec]];
        // One validator (its document loaded once), through its own steps and through these; its
        // request validator, built by the first, is then called directly by the second.
        const steps = validatorMiddlewares(spec, mlflow);
        const own = steps.filter((step) => step.name !== "securityMiddleware");
        const expected = await answersOf(own, twice);
        expect(await answersOf(validatorSteps(steps), twice)).toEqual(expected);
        // The requests did reach their operations (and were refused where they should be).
        expect(expected.join("\n")).toMatch(/-> 200 \{"operationId":"/);
      });
    }
  }

  it("validates a valid JSON write without the request step's per-request set-up, and hands the rest to it", async () => {
    // The validator's own request step, counted: the shortcut must leave it out for valid writes.
    const { RequestValidator } = createRequire(import.meta.url)(
      "express-openapi-validator/dist/middlewares/openapi.request.validator.js",
    ) as { RequestValidator: { prototype: { validate: RequestHandler } } };
    const own = RequestValidator.prototype.validate;
    let calls = 0;
    RequestValidator.prototype.validate = function (this: unknown, ...args: Parameters<RequestHandler>) {
      calls++;
      return own.apply(this, args);
    };
    try {
      const steps = validatorSteps(validatorMiddlewares("c", false));
      const valid: [string, string, object] = [
        "POST",
        "/api/2.0/tracker/runs/log-metric",
        { run_id: "r1", key: "k", value: 1, timestamp: 1 },
      ];
      const invalid: [string, string, object] = ["POST", "/api/2.0/tracker/runs/log-metric", { run_id: "r1" }];
      const withQuery: [string, string, object] = ["POST", "/api/2.0/tracker/runs/log-metric?x=1", valid[2]];
      // The first builds the validator's middleware for the operation; the next two take the shortcut.
      const answers = await answersOf(steps, [valid, valid, valid]);
      expect(answers[2]).toMatch(/-> 200 \{"operationId":"logMetric"/);
      expect(calls).toBe(1);
      // Refused, or with a query string: the validator's own step.
      const refused = await answersOf(steps, [invalid, withQuery]);
      expect(refused[0]).toMatch(/-> 400 /);
      expect(refused[1]).toMatch(/-> 200 /);
      expect(calls).toBe(3);
    } finally {
      RequestValidator.prototype.validate = own;
    }
  });

  it("skips the path-parameter step once it has passed a request, not after an error", async () => {
    const calls: string[] = [];
    let fail = true;
    const pathParamsMiddleware: RequestHandler = (_req, _res, next) => {
      calls.push("step");
      next(fail ? new Error("not loaded") : undefined);
    };
    const [step] = validatorSteps([pathParamsMiddleware]);
    const run = () =>
      new Promise<unknown>((resolve) => step!({} as Request, {} as express.Response, (err?: unknown) => resolve(err)));
    expect(await run()).toBeInstanceOf(Error);
    fail = false;
    expect(await run()).toBeUndefined();
    expect(await run()).toBeUndefined();
    expect(calls).toEqual(["step", "step"]);
  });

  it("remembers at most MEMO_LIMIT paths, and never a path with parameters or an error", async () => {
    let walks = 0;
    const metadataMiddleware: RequestHandler = (request, _res, next) => {
      walks++;
      const req = request as Described;
      if (req.originalUrl.includes("fail")) {
        next(new Error("malformed"));
        return;
      }
      req.openapi = {
        schema: { operationId: "op" },
        pathParams: req.originalUrl.includes("param") ? { id: "1" } : {},
      };
      next();
    };
    const [step] = validatorSteps([metadataMiddleware]);
    const run = (originalUrl: string, method = "GET") =>
      new Promise<Described>((resolve) => {
        const req = { method, originalUrl } as Described;
        step!(req, {} as express.Response, () => resolve(req));
      });
    const first = await run("/a?x=1");
    const again = await run("/a?y=2");
    expect(walks).toBe(1);
    expect(again.openapi).toEqual(first.openapi);
    expect(again.openapi).not.toBe(first.openapi);
    expect(again.params).toBe(again.openapi?.pathParams);
    await run("/a", "POST");
    expect(walks).toBe(2);
    await run("/param");
    await run("/param");
    await run("/fail");
    await run("/fail");
    expect(walks).toBe(6);
    for (let i = 0; i < MEMO_LIMIT; i++) await run(`/p${i}`);
    expect(walks).toBe(6 + MEMO_LIMIT);
    // The memo was full: it started again, so /a is walked once more, then remembered.
    await run("/a");
    await run("/a");
    expect(walks).toBe(7 + MEMO_LIMIT);
  });
});
