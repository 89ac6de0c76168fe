import { expect } from "vitest";
import type { ExtScenario } from "../harness/ext-scenario.js";

/** MLflow 2.x/3.x operations beyond revision C: delete-experiment-tag, search-datasets and /version. */

const DELETE_TAG = "/api/2.0/tracker/experiments/delete-experiment-tag";
const SEARCH_DATASETS = "/api/2.0/tracker/experiments/search-datasets";

const dataset = (name: string, digest: string) => ({ name, digest, source_type: "local", source: "{}" });

const oversized = (url: string, path: string, fetch: typeof globalThis.fetch) =>
  fetch(`${url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ experiment_id: "0", key: "k", experiment_ids: ["0"], padding: "p".repeat(1_100_000) }),
  });

export const scenario: ExtScenario = {
  name: "MLflow's delete-experiment-tag, search-datasets and /version",
  async run({ ext, unauthenticated, client, c, fetch, url }) {
    const experimentId = await client.createExperiment("contract-mlflow-compat");
    await c.POST("/2.0/tracker/experiments/set-experiment-tag", {
      body: { experiment_id: experimentId, key: "team", value: "ml" },
    });
    const deleted = await ext.POST(DELETE_TAG, { body: { experiment_id: experimentId, key: "team" } });
    expect(deleted.response.status).toBe(200);
    expect(deleted.data).toEqual({});
    const again = await ext.POST(DELETE_TAG, { body: { experiment_id: experimentId, key: "team" } });
    expect(again.response.status).toBe(404);
    expect(again.error).toMatchObject({
      error_code: "RESOURCE_DOES_NOT_EXIST",
      message: `No tag with name: team in experiment with id ${experimentId}`,
    });
    const noExperiment = await ext.POST(DELETE_TAG, { body: { experiment_id: "987654321", key: "team" } });
    expect(noExperiment.response.status).toBe(404);
    const noKey = await ext.POST(DELETE_TAG, { body: { experiment_id: experimentId } as never });
    expect(noKey.response.status).toBe(400);
    expect((await oversized(url, DELETE_TAG, fetch)).status).toBe(413);
    const deniedDelete = await unauthenticated.POST(DELETE_TAG, { body: { experiment_id: "0", key: "k" } });
    expect(deniedDelete.response.status).toBe(401);

    const run = await client.createRun(experimentId);
    await client.logInputs(run.info.run_id, [dataset("train", "d1")], "training");
    await client.logInputs(run.info.run_id, [{ dataset: dataset("raw", "d2") }]);
    const found = await ext.POST(SEARCH_DATASETS, { body: { experiment_ids: [experimentId] } });
    expect(found.response.status).toBe(200);
    expect(found.data).toEqual({
      dataset_summaries: [
        { experiment_id: experimentId, name: "raw", digest: "d2" },
        { experiment_id: experimentId, name: "train", digest: "d1", context: "training" },
      ],
    });
    const none = await ext.POST(SEARCH_DATASETS, { body: { experiment_ids: ["0"] } });
    expect(none.data).toEqual({});
    const empty = await ext.POST(SEARCH_DATASETS, { body: {} });
    expect(empty.response.status).toBe(400);
    expect(empty.error).toMatchObject({ message: "SearchDatasets request must specify at least one experiment_id." });
    expect((await oversized(url, SEARCH_DATASETS, fetch)).status).toBe(413);
    const deniedSearch = await unauthenticated.POST(SEARCH_DATASETS, { body: { experiment_ids: ["0"] } });
    expect(deniedSearch.response.status).toBe(401);

    const version = await ext.GET("/version", { parseAs: "text" });
    expect(version.response.status).toBe(200);
    expect(version.response.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(version.data).toBe("3.3.2");
    const deniedVersion = await unauthenticated.GET("/version", { parseAs: "text" });
    expect(deniedVersion.response.status).toBe(401);
  },
};
