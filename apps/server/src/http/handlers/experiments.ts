import * as experiments from "../../core/experiments.js";
import { runsOfExperiment } from "../../core/runs.js";
import { tagNamespaceOf } from "../../core/services.js";
import type { ViewType } from "../../core/model.js";
import type { HandlerTable } from "../operation-handler.js";
import { experimentId, keyValues, optionalInt, optionalString, requiredString, stringArray } from "../input.js";
import { experimentOut, runInfoOut } from "../shapes.js";

/** Experiment operations of every revision. */

const DEFAULT_MAX_RESULTS = 1000;

export const experimentHandlers: HandlerTable = {
  async createExperiment({ revision, input, services }) {
    const id = await experiments.createExperiment(services, {
      name: requiredString(input, "name"),
      artifactLocation: optionalString(input, "artifact_location"),
      tags: keyValues(input, "tags"),
    });
    return { experiment_id: revision === "c" ? String(id) : id };
  },

  async listExperiments({ revision, input, services }) {
    const viewType = (optionalString(input, "view_type") as ViewType | undefined) ?? "ACTIVE_ONLY";
    if (revision !== "c") {
      // A and B have no paging on experiments/list: they get every experiment.
      const all = await experiments.listAllExperiments(services, viewType);
      return { experiments: all.map((e) => experimentOut(revision, e)) };
    }
    const page = await experiments.searchExperiments(services, {
      viewType,
      maxResults: optionalInt(input, "max_results") ?? DEFAULT_MAX_RESULTS,
      pageToken: optionalString(input, "page_token"),
    });
    const body = { experiments: page.items.map((e) => experimentOut(revision, e)) };
    return page.nextPageToken ? { ...body, next_page_token: page.nextPageToken } : body;
  },

  async searchExperiments({ revision, input, services }) {
    const page = await experiments.searchExperiments(services, {
      filter: optionalString(input, "filter"),
      orderBy: stringArray(input, "order_by"),
      viewType: (optionalString(input, "view_type") as ViewType | undefined) ?? "ACTIVE_ONLY",
      maxResults: optionalInt(input, "max_results") ?? DEFAULT_MAX_RESULTS,
      pageToken: optionalString(input, "page_token"),
    });
    const body = { experiments: page.items.map((e) => experimentOut(revision, e)) };
    return page.nextPageToken ? { ...body, next_page_token: page.nextPageToken } : body;
  },

  async getExperiment({ revision, input, services }) {
    const experiment = await experiments.getExperiment(services, experimentId(input));
    const runs = await runsOfExperiment(services, experiment.experimentId, revision !== "a");
    return {
      experiment: experimentOut(revision, experiment),
      runs: runs.map((run) => runInfoOut(revision, run.info, run.tags, tagNamespaceOf(services))),
    };
  },

  async getExperimentByName({ revision, input, services }) {
    const experiment = await experiments.getExperimentByName(services, requiredString(input, "experiment_name"));
    return { experiment: experimentOut(revision, experiment) };
  },

  async deleteExperiment({ input, services }) {
    await experiments.deleteExperiment(services, experimentId(input));
    return {};
  },

  async restoreExperiment({ input, services }) {
    await experiments.restoreExperiment(services, experimentId(input));
    return {};
  },

  async updateExperiment({ input, services }) {
    await experiments.renameExperiment(services, experimentId(input), optionalString(input, "new_name"));
    return {};
  },

  async setExperimentTag({ input, services }) {
    await experiments.setExperimentTag(services, experimentId(input), {
      key: requiredString(input, "key"),
      value: optionalString(input, "value") ?? "",
    });
    return {};
  },

  async deleteExperimentTag({ input, services }) {
    await experiments.deleteExperimentTag(services, experimentId(input), requiredString(input, "key"));
    return {};
  },
};
