import * as experiments from "../../core/experiments.js";
import { runsOfExperiment } from "../../core/runs.js";
import { requireField } from "../../core/values.js";
import { tagNamespaceOf } from "../../core/services.js";
import { JsonText, pageText } from "../json-text.js";
import { handlerTable, type OperationAnswer } from "../operation-handler.js";
import { experimentId, keyValues, listOf, optionalInt } from "../input.js";
import { experimentOut, runInfoOut } from "../shapes.js";

/** Experiment operations of every revision. */

const DEFAULT_MAX_RESULTS = 1000;

type SearchExperimentsAnswer = OperationAnswer<"searchExperiments">;

export const experimentHandlers = handlerTable({
  async createExperiment({ revision, input, services }) {
    const id = await experiments.createExperiment(services, {
      name: requireField("name", input.name),
      artifactLocation: input.artifact_location,
      tags: "tags" in input ? keyValues(input.tags) : [],
    });
    return { experiment_id: revision === "c" ? String(id) : id };
  },

  async listExperiments({ revision, input, services }) {
    const viewType = input.view_type ?? "ACTIVE_ONLY";
    if (revision !== "c") {
      // A and B have no paging on experiments/list: they get every experiment.
      const all = await experiments.listAllExperiments(services, viewType);
      return { experiments: all.map((e) => experimentOut(revision, e, tagNamespaceOf(services))) };
    }
    const page = await experiments.searchExperiments(services, {
      viewType,
      maxResults: optionalInt("max_results", input.max_results) ?? DEFAULT_MAX_RESULTS,
      pageToken: input.page_token,
    });
    const body = { experiments: page.items.map((e) => experimentOut(revision, e, tagNamespaceOf(services))) };
    return page.nextPageToken ? { ...body, next_page_token: page.nextPageToken } : body;
  },

  async searchExperiments({ revision, input, services }) {
    const query = {
      filter: input.filter,
      orderBy: listOf(input.order_by),
      viewType: input.view_type ?? "ACTIVE_ONLY",
      maxResults: optionalInt("max_results", input.max_results) ?? DEFAULT_MAX_RESULTS,
      pageToken: input.page_token,
    } as const;
    if (revision === "c") {
      // The database writes each experiment's JSON text (the answer of up to 50,000 experiments is
      // not parsed into objects and serialised again); the same answer as experimentOut's.
      const json = await experiments.searchExperimentsJson(services, query, tagNamespaceOf(services));
      return new JsonText<SearchExperimentsAnswer>(pageText("experiments", json.items, json.nextPageToken));
    }
    const page = await experiments.searchExperiments(services, query);
    const body = { experiments: page.items.map((e) => experimentOut(revision, e, tagNamespaceOf(services))) };
    return page.nextPageToken ? { ...body, next_page_token: page.nextPageToken } : body;
  },

  async getExperiment({ revision, input, services }) {
    const experiment = await experiments.getExperiment(services, experimentId(input.experiment_id));
    const runs = await runsOfExperiment(services, experiment.experimentId, revision !== "a");
    return {
      experiment: experimentOut(revision, experiment, tagNamespaceOf(services)),
      runs: runs.map((run) => runInfoOut(revision, run.info, run.tags, tagNamespaceOf(services))),
    };
  },

  async getExperimentByName({ revision, input, services }) {
    const name = requireField("experiment_name", input.experiment_name);
    return {
      experiment: experimentOut(
        revision,
        await experiments.getExperimentByName(services, name),
        tagNamespaceOf(services),
      ),
    };
  },

  async deleteExperiment({ input, services }) {
    await experiments.deleteExperiment(services, experimentId(input.experiment_id));
    return {};
  },

  async restoreExperiment({ input, services }) {
    await experiments.restoreExperiment(services, experimentId(input.experiment_id));
    return {};
  },

  async updateExperiment({ input, services }) {
    await experiments.renameExperiment(services, experimentId(input.experiment_id), input.new_name);
    return {};
  },

  async setExperimentTag({ input, services }) {
    await experiments.setExperimentTag(services, experimentId(input.experiment_id), {
      key: requireField("key", input.key),
      value: input.value ?? "",
    });
    return {};
  },

  async deleteExperimentTag({ input, services }) {
    await experiments.deleteExperimentTag(services, experimentId(input.experiment_id), requireField("key", input.key));
    return {};
  },
});
