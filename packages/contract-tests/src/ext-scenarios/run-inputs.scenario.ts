import { expect } from "vitest";
import type { ExtScenario } from "../harness/ext-scenario.js";

const PATH = "/api/2.0/tracker/runs/log-inputs";

const dataset = (name: string, digest: string) => ({
  name,
  digest,
  source_type: "local",
  source: JSON.stringify({ uri: `/data/${name}.csv` }),
  schema: JSON.stringify({ mlflow_colspec: [{ type: "double", name: "x" }] }),
  profile: JSON.stringify({ num_rows: 10 }),
});

export const scenario: ExtScenario = {
  name: "runs/log-inputs records datasets once, with their refusals",
  async run({ ext, unauthenticated, client, fetch, url }) {
    const experimentId = await client.createExperiment("contract-datasets");
    const run = await client.createRun(experimentId);
    const runId = run.info.run_id;
    await client.logInputs(runId, [dataset("train", "d1")], "training");
    await client.logInputs(runId, [
      { dataset: dataset("eval", "d2"), tags: [{ key: "mlflow.data.context", value: "validation" }] },
    ]);
    const again = await ext.POST(PATH, { body: { run_id: runId, datasets: [{ dataset: dataset("train", "d1") }] } });
    expect(again.response.status).toBe(200);

    const missingRun = await ext.POST(PATH, {
      body: { run_id: "f".repeat(32), datasets: [{ dataset: dataset("x", "y") }] },
    });
    expect(missingRun.response.status).toBe(404);
    const tooLong = await ext.POST(PATH, {
      body: { run_id: runId, datasets: [{ dataset: dataset("x", "d".repeat(37)) }] },
    });
    expect(tooLong.error).toMatchObject({
      error_code: "INVALID_PARAMETER_VALUE",
      message: "'Dataset digest' exceeds the maximum length of 36 characters",
    });

    const huge = await fetch(`${url}${PATH}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        run_id: runId,
        datasets: [{ dataset: { ...dataset("big", "d3"), profile: "p".repeat(1_100_000) } }],
      }),
    });
    expect(huge.status).toBe(413);

    const denied = await unauthenticated.POST(PATH, { body: { run_id: runId, datasets: [] } });
    expect(denied.response.status).toBe(401);
  },
};
