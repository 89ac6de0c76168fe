import * as aliases from "../../core/registry/aliases.js";
import type { HandlerTable } from "../operation-handler.js";
import { requiredString, type Input } from "../input.js";
import { modelVersionOut } from "./registry.js";

/** Model aliases (spec/ext.yaml; MLflow 2.3+): set, delete, list a model's, and get the version an alias names. */

/** DELETE reads its fields from the JSON body or, when the body has none, from the query string (MLflow's clients use both). */
const bodyOrQuery = (input: Input, query: Input): Input => (Object.keys(input).length > 0 ? input : query);

export const modelAliasHandlers: HandlerTable = {
  async setRegisteredModelAlias({ input, services }) {
    await aliases.setRegisteredModelAlias(
      services,
      requiredString(input, "name"),
      requiredString(input, "alias"),
      requiredString(input, "version"),
    );
    return {};
  },

  async deleteRegisteredModelAlias({ input, services, req }) {
    const fields = bodyOrQuery(input, req.query as Input);
    await aliases.deleteRegisteredModelAlias(services, requiredString(fields, "name"), requiredString(fields, "alias"));
    return {};
  },

  async listRegisteredModelAliases({ input, services }) {
    const list = await aliases.listRegisteredModelAliases(services, requiredString(input, "name"));
    return { aliases: list.map((a) => ({ alias: a.alias, version: String(a.version) })) };
  },

  async getModelVersionByAlias({ input, services }) {
    const version = await aliases.getModelVersionByAlias(
      services,
      requiredString(input, "name"),
      requiredString(input, "alias"),
    );
    return { model_version: modelVersionOut(version, true) };
  },
};
