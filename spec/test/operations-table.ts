/**
 * The operations of each revision, written from part 4 of the interface specification
 * (method, path below /api). The spec files must list exactly these.
 */
const preview = "/2.0/preview/tracker";
const tracking = "/2.0/tracker";

const revisionA: Array<[string, string]> = [
  ["post", `${preview}/experiments/create`],
  ["get", `${preview}/experiments/list`],
  ["get", `${preview}/experiments/get`],
  ["post", `${preview}/runs/create`],
  ["get", `${preview}/runs/get`],
  ["post", `${preview}/runs/update`],
  ["post", `${preview}/runs/search`],
  ["post", `${preview}/runs/log-metric`],
  ["post", `${preview}/runs/log-parameter`],
  ["get", `${preview}/metrics/get`],
  ["get", `${preview}/metrics/get-history`],
  ["get", `${preview}/params/get`],
  ["get", `${preview}/artifacts/list`],
  ["get", `${preview}/artifacts/get`],
];

const revisionB: Array<[string, string]> = [
  ...revisionA.filter(([, p]) => p !== `${preview}/artifacts/get`),
  ["post", `${preview}/experiments/delete`],
  ["post", `${preview}/experiments/restore`],
  ["post", `${preview}/runs/delete`],
  ["post", `${preview}/runs/restore`],
  ["post", `${preview}/runs/set-tag`],
];

const revisionC: Array<[string, string]> = [
  ["post", `${tracking}/experiments/create`],
  ["get", `${tracking}/experiments/list`],
  ["post", `${tracking}/experiments/search`],
  ["get", `${tracking}/experiments/get`],
  ["get", `${tracking}/experiments/get-by-name`],
  ["post", `${tracking}/experiments/delete`],
  ["post", `${tracking}/experiments/restore`],
  ["post", `${tracking}/experiments/update`],
  ["post", `${tracking}/experiments/set-experiment-tag`],
  ["post", `${tracking}/runs/create`],
  ["post", `${tracking}/runs/delete`],
  ["post", `${tracking}/runs/restore`],
  ["get", `${tracking}/runs/get`],
  ["post", `${tracking}/runs/update`],
  ["post", `${tracking}/runs/search`],
  ["post", `${tracking}/runs/log-metric`],
  ["post", `${tracking}/runs/log-parameter`],
  ["post", `${tracking}/runs/set-tag`],
  ["post", `${tracking}/runs/delete-tag`],
  ["post", `${tracking}/runs/log-batch`],
  ["post", `${tracking}/runs/log-model`],
  ["get", `${tracking}/metrics/get-history`],
  ["get", `${tracking}/artifacts/list`],
  ["post", `${preview}/registered-models/create`],
  ["get", `${preview}/registered-models/get`],
  ["post", `${preview}/registered-models/rename`],
  ["patch", `${preview}/registered-models/update`],
  ["delete", `${preview}/registered-models/delete`],
  ["get", `${preview}/registered-models/list`],
  ["get", `${preview}/registered-models/search`],
  ["post", `${tracking}/registered-models/get-latest-versions`],
  ["post", `${preview}/model-versions/create`],
  ["get", `${preview}/model-versions/get`],
  ["patch", `${preview}/model-versions/update`],
  ["delete", `${preview}/model-versions/delete`],
  ["get", `${preview}/model-versions/search`],
  ["get", `${preview}/model-versions/get-download-uri`],
  ["post", `${preview}/model-versions/transition-stage`],
  ["post", `${preview}/registered-models/set-tag`],
  ["post", `${preview}/model-versions/set-tag`],
  ["delete", `${preview}/registered-models/delete-tag`],
  ["delete", `${preview}/model-versions/delete-tag`],
];

export const OPERATIONS_BY_REVISION = { a: revisionA, b: revisionB, c: revisionC } as const;
