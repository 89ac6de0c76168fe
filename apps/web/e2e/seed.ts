// Data for the end-to-end tests, created through @tracker-ml/client as a user's script would.
import { TrackerClient } from "@tracker-ml/client";

export const XSS_NAME = `<img src=x onerror="window.__xss=1">`;
export const XSS_SCRIPT = `<script>window.__xss=2</script>`;

export interface Seeded {
  experimentId: string;
  runIds: Record<string, string>;
  best: string;
  modelName: string;
}

/** An experiment with five finished runs (lr, model, acc/loss histories), a nested child, a RUNNING run. */
export async function seed(baseUrl: string, ns: string, token?: string): Promise<Seeded> {
  const client = new TrackerClient({ baseUrl, token });
  const experimentId = await client.createExperiment("fraud-detection", { tags: { team: "risk" } });
  const runIds: Record<string, string> = {};
  const specs = [
    { name: "baseline", lr: 0.1, model: "logreg", acc: 0.71 },
    { name: "deeper-net", lr: 0.01, model: "mlp", acc: 0.86 },
    { name: "best-net", lr: 0.003, model: "mlp", acc: 0.93 },
    { name: "tiny-lr", lr: 0.0001, model: "mlp", acc: 0.64 },
    { name: XSS_NAME, lr: 0.05, model: "tree", acc: 0.8 },
  ];
  const t0 = Date.UTC(2026, 10, 20, 9, 0, 0);
  for (const [i, spec] of specs.entries()) {
    const run = await client.createRun(experimentId, {
      runName: spec.name,
      startTime: t0 + i * 60_000,
      tags: { [`${ns}.user`]: "alice", [`${ns}.source.name`]: "train.py", stage: XSS_SCRIPT },
    });
    const id = run.info.run_id;
    runIds[spec.name] = id;
    const metrics = [];
    for (let step = 0; step < 50; step++) {
      const acc = spec.acc * (1 - Math.exp(-step / 8));
      metrics.push({ key: "acc", value: Number(acc.toFixed(4)), step, timestamp: t0 + i * 60_000 + step * 1000 });
      metrics.push({
        key: "loss",
        value: Number((1 - acc + 0.05).toFixed(4)),
        step,
        timestamp: t0 + i * 60_000 + step * 1000,
      });
    }
    metrics.push({ key: "acc", value: spec.acc, step: 50, timestamp: t0 + i * 60_000 + 50_000 });
    await client.logBatch(id, { metrics, params: { lr: spec.lr, model: spec.model, epochs: 50 } });
    await client.setTerminated(id, "FINISHED", t0 + i * 60_000 + 55_000);
  }
  const best = runIds["best-net"]!;
  await client.setTag(
    best,
    `${ns}.note.content`,
    `## Best so far\n\nUses **mlp** with a small lr.\n\n${XSS_SCRIPT}<img src=x onerror="window.__xss=3">`,
  );
  const child = await client.createRun(experimentId, {
    runName: "best-net-fold-1",
    startTime: t0 + 10 * 60_000,
    tags: { [`${ns}.parentRunId`]: best, [`${ns}.user`]: "alice" },
  });
  runIds["best-net-fold-1"] = child.info.run_id;
  await client.logMetric(child.info.run_id, "acc", 0.9, { step: 0 });
  await client.setTerminated(child.info.run_id, "FINISHED", t0 + 11 * 60_000);
  const live = await client.createRun(experimentId, {
    runName: "still-training",
    startTime: t0 + 20 * 60_000,
    tags: { [`${ns}.user`]: "bob" },
  });
  runIds["still-training"] = live.info.run_id;
  await client.logMetric(live.info.run_id, "acc", 0.5, { step: 0 });

  // Artifacts of the best run, uploaded through the server's artifact service as a training script
  // on another machine does.
  const bestRun = await client.getRun(best);
  const uri = bestRun.info.artifact_uri ?? "";
  const bytes = (text: string) => new TextEncoder().encode(text);
  await client.uploadArtifact(best, bytes("flavors:\n  python_function:\n    loader_module: model\n"), "model/MLmodel");
  await client.uploadArtifact(best, bytes(JSON.stringify({ acc: 0.93, note: XSS_SCRIPT })), "metrics.json");
  await client.uploadArtifact(
    best,
    bytes(`id,label,score\n1,fraud,0.97\n2,ok,"${XSS_NAME.replace(/"/g, '""')}"\n`),
    "predictions.csv",
  );
  await client.uploadArtifact(best, bytes(`plain text ${XSS_SCRIPT}`), "notes.txt");

  const modelName = "fraud-model";
  await client.createRegisteredModel(modelName, { description: "Detects fraud." });
  await client.createModelVersion(modelName, `${uri}/model`, { runId: runIds["deeper-net"] });
  await client.transitionModelVersionStage(modelName, 1, "Production");
  await client.createModelVersion(modelName, `${uri}/model`, { runId: best });
  return { experimentId, runIds, best, modelName };
}
