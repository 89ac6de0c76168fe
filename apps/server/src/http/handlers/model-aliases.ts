import * as aliases from "../../core/registry/aliases.js";
import { requireField } from "../../core/values.js";
import { tagNamespaceOf } from "../../core/services.js";
import { handlerTable, type OperationContext } from "../operation-handler.js";
import { modelVersionOut } from "./registry.js";

/** Model aliases (spec/ext.yaml; MLflow 2.3+): set, delete, list a model's, and get the version an alias names. */

/** DELETE reads its fields from the JSON body or, when the body has none, from the query string (MLflow's clients use both). */
type DeleteAliasFields = OperationContext<"deleteRegisteredModelAlias">["input"];
const bodyOrQuery = (input: DeleteAliasFields, query: DeleteAliasFields): DeleteAliasFields =>
  Object.keys(input).length > 0 ? input : query;

export const modelAliasHandlers = handlerTable({
  async setRegisteredModelAlias({ input, services }) {
    await aliases.setRegisteredModelAlias(
      services,
      requireField("name", input.name),
      requireField("alias", input.alias),
      requireField("version", input.version),
    );
    return {};
  },

  async deleteRegisteredModelAlias({ input, services, req }) {
    const fields = bodyOrQuery(input, req.query as DeleteAliasFields);
    await aliases.deleteRegisteredModelAlias(
      services,
      requireField("name", fields.name),
      requireField("alias", fields.alias),
    );
    return {};
  },

  async listRegisteredModelAliases({ input, services }) {
    const list = await aliases.listRegisteredModelAliases(services, requireField("name", input.name));
    return { aliases: list.map((a) => ({ alias: a.alias, version: String(a.version) })) };
  },

  async getModelVersionByAlias({ input, services }) {
    const version = await aliases.getModelVersionByAlias(
      services,
      requireField("name", input.name),
      requireField("alias", input.alias),
    );
    return { model_version: modelVersionOut(version, tagNamespaceOf(services), true) };
  },
});
