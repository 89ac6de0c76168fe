import { expect } from "vitest";
import type { ExtScenario } from "../harness/ext-scenario.js";

const PATH = "/api/2.0/tracker/registered-models/alias";
const LIST_PATH = "/api/2.0/tracker/registered-models/aliases";

export const scenario: ExtScenario = {
  name: "model aliases: set, get by alias, list, move, delete, with their refusals",
  async run({ ext, unauthenticated, client }) {
    await client.createRegisteredModel("contract-aliases");
    await client.createModelVersion("contract-aliases", "s3://bucket/model/1");
    await client.createModelVersion("contract-aliases", "s3://bucket/model/2");

    await client.setRegisteredModelAlias("contract-aliases", "champion", 1);
    expect(await client.getModelVersionByAlias("contract-aliases", "champion")).toMatchObject({
      version: "1",
      aliases: ["champion"],
    });
    await client.setRegisteredModelAlias("contract-aliases", "champion", "2");
    expect((await client.getModelVersionByAlias("contract-aliases", "champion")).version).toBe("2");
    await client.setRegisteredModelAlias("contract-aliases", "baseline", 1);
    expect(await client.listRegisteredModelAliases("contract-aliases")).toEqual([
      { alias: "baseline", version: "1" },
      { alias: "champion", version: "2" },
    ]);
    await client.deleteRegisteredModelAlias("contract-aliases", "champion");
    await client.deleteRegisteredModelAlias("contract-aliases", "baseline");
    expect(await client.listRegisteredModelAliases("contract-aliases")).toEqual([]);

    // 404: unknown model, unknown version, unknown alias.
    const noModel = await ext.POST(PATH, { body: { name: "contract-nope", alias: "a", version: "1" } });
    expect(noModel.response.status).toBe(404);
    const noVersion = await ext.POST(PATH, { body: { name: "contract-aliases", alias: "a", version: "9" } });
    expect(noVersion.error).toMatchObject({ error_code: "RESOURCE_DOES_NOT_EXIST" });
    const noAlias = await ext.GET(PATH, { params: { query: { name: "contract-aliases", alias: "champion" } } });
    expect(noAlias.response.status).toBe(404);
    const deleteNoModel = await ext.DELETE(PATH, { body: { name: "contract-nope", alias: "a" } });
    expect(deleteNoModel.response.status).toBe(404);

    // 400: reserved and malformed aliases, missing fields.
    const reserved = await ext.POST(PATH, { body: { name: "contract-aliases", alias: "latest", version: "1" } });
    expect(reserved.error).toMatchObject({
      error_code: "INVALID_PARAMETER_VALUE",
      message: "'latest' alias name (case insensitive) is reserved.",
    });
    const badDelete = await ext.DELETE(PATH, { body: { name: "contract-aliases", alias: "v1" } });
    expect(badDelete.response.status).toBe(400);
    const missing = await ext.GET(PATH, {
      params: { query: { name: "contract-aliases" } as { name: string; alias: string } },
    });
    expect(missing.response.status).toBe(400);
    const listMissing = await ext.GET(LIST_PATH, { params: { query: {} as { name: string } } });
    expect(listMissing.response.status).toBe(400);
    const listNoModel = await ext.GET(LIST_PATH, { params: { query: { name: "contract-nope" } } });
    expect(listNoModel.error).toMatchObject({ error_code: "RESOURCE_DOES_NOT_EXIST" });

    // 401 on a server with a token.
    for (const denied of [
      await unauthenticated.POST(PATH, { body: { name: "m", alias: "a", version: "1" } }),
      await unauthenticated.DELETE(PATH, { body: { name: "m", alias: "a" } }),
      await unauthenticated.GET(PATH, { params: { query: { name: "m", alias: "a" } } }),
      await unauthenticated.GET(LIST_PATH, { params: { query: { name: "m" } } }),
    ]) {
      expect(denied.response.status).toBe(401);
    }
  },
};
