import express from "express";
import { describe, expect, it } from "vitest";
import { sendJson } from "./json-response.js";
import { checkAnswersOf, responseChecks } from "./response-check.js";

const document = {
  openapi: "3.1.0",
  paths: {
    "/things/get": {
      get: {
        operationId: "getThing",
        responses: {
          "200": {
            content: { "application/json": { schema: { $ref: "#/components/schemas/Thing" } } },
          },
          "4XX": {
            content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
          },
        },
      },
    },
    "/things/delete": {
      post: { operationId: "deleteThing", responses: { "200": { description: "no body" } } },
    },
  },
  components: {
    schemas: {
      Thing: {
        type: "object",
        required: ["id"],
        properties: { id: { type: "integer", format: "int64" }, name: { type: "string" } },
      },
      Error: { type: "object", required: ["error_code"], properties: { error_code: { type: "string" } } },
    },
  },
};

describe("responseChecks", () => {
  const checks = responseChecks(structuredClone(document));

  it("accepts a body of the status's schema, following $refs", () => {
    expect(checks("getThing")(200, { id: 3, name: "a" })).toBeUndefined();
    expect(checks("getThing")(404, { error_code: "RESOURCE_DOES_NOT_EXIST" })).toBeUndefined();
  });

  it("says what is wrong with a body that does not match", () => {
    expect(checks("getThing")(200, { name: 1 })).toBe(
      "/response must have required property 'id'; /response/name must be string",
    );
    expect(checks("getThing")(200, { id: 1.5 })).toContain("/response/id must be integer");
  });

  it("refuses an undocumented status and a body where none is documented", () => {
    expect(checks("getThing")(500, {})).toBe("no schema defined for status code '500' in the openapi spec");
    expect(checks("deleteThing")(200, {})).toBe("response should NOT have a body");
  });
});

describe("sendJson with a check", () => {
  async function answers(body: object) {
    const app = express();
    const checks = responseChecks(structuredClone(document));
    app.get("/checked", (_req, res) => {
      checkAnswersOf(res, checks("getThing"));
      sendJson(res, body);
    });
    app.get("/unchecked", (_req, res) => sendJson(res, body));
    const server = app.listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    const { port } = server.address() as { port: number };
    const out = [];
    for (const path of ["/checked", "/unchecked"]) {
      const res = await fetch(`http://127.0.0.1:${port}${path}`);
      out.push({ status: res.status, headers: Object.fromEntries(res.headers), text: await res.text() });
    }
    await new Promise((r) => server.close(r));
    return out;
  }

  it("writes a matching answer exactly as it does unchecked", async () => {
    const [checked, unchecked] = await answers({ id: 1 });
    expect(checked.status).toBe(200);
    expect(checked.text).toBe('{"id":1}');
    const { date: _d1, ...checkedHeaders } = checked.headers;
    const { date: _d2, ...uncheckedHeaders } = unchecked.headers;
    expect(checkedHeaders).toEqual(uncheckedHeaders);
  });

  it("answers a body that does not match as a server bug", async () => {
    const [checked, unchecked] = await answers({ name: "x" });
    expect(checked.status).toBe(500);
    expect(JSON.parse(checked.text)).toEqual({
      error_code: "INTERNAL_ERROR",
      message: "Response does not match the spec: /response must have required property 'id'",
    });
    expect(unchecked.status).toBe(200);
  });
});
