import { invalidParameter } from "../../core/errors.js";
import { toExperimentId } from "../../core/values.js";
import { tagNamespaceOf } from "../../core/services.js";
import { STORED_NAMESPACE, swapTagNamespace } from "../../domain/system-tags.js";
import { runKeys } from "../../store/runs.js";
import { listOf } from "../input.js";
import { handlerTable } from "../operation-handler.js";
import { searchRunsC } from "./runs.js";

/** Ext operations for views that show a few columns of many runs (spec/ext.yaml). */

const MAX_KEYS_PER_KIND = 1000;
const MAX_LISTED_KEYS = 5000;
const MAX_EXPERIMENTS = 100;

function keyList(field: string, value: string[] | undefined): string[] {
  const keys = listOf(value);
  if (keys.length > MAX_KEYS_PER_KIND)
    throw invalidParameter(`'${field}' holds ${keys.length} keys; at most ${MAX_KEYS_PER_KIND} are allowed`);
  return keys;
}

export const runColumnsHandlers = handlerTable({
  async searchRunsColumns({ input, services }) {
    const columns = {
      metricKeys: keyList("metric_keys", input.metric_keys),
      paramKeys: keyList("param_keys", input.param_keys),
      tagKeys: keyList("tag_keys", input.tag_keys),
      systemPrefix: STORED_NAMESPACE,
    };
    // `include_inputs`: the runs' datasets (and model inputs, outputs) as MLflow's paths give them.
    return searchRunsC(services, input, columns, input.include_inputs === true);
  },

  async listRunKeys({ input, services }) {
    const ids = listOf(input.experiment_ids);
    if (ids.length === 0) throw invalidParameter("Missing value for required parameter 'experiment_ids'");
    if (ids.length > MAX_EXPERIMENTS)
      throw invalidParameter(`'experiment_ids' holds ${ids.length} ids; at most ${MAX_EXPERIMENTS} are allowed`);
    const keys = await runKeys(
      services.knex,
      ids.map((id) => toExperimentId(id, "experiment_ids")),
      MAX_LISTED_KEYS + 1,
    );
    const truncated = [keys.metricKeys, keys.paramKeys, keys.tagKeys].some((list) => list.length > MAX_LISTED_KEYS);
    return {
      metric_keys: keys.metricKeys.slice(0, MAX_LISTED_KEYS),
      param_keys: keys.paramKeys.slice(0, MAX_LISTED_KEYS),
      tag_keys: keys.tagKeys
        .slice(0, MAX_LISTED_KEYS)
        .map((key) => swapTagNamespace(tagNamespaceOf(services), key))
        .sort(),
      truncated,
    };
  },
});
