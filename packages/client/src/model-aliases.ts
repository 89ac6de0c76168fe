// Model aliases (MLflow 2.3+) from tracker's extensions (spec/ext.yaml): a name such as `champion`
// for one version of a model.
import { ClientCore } from "./client-core.js";
import type { components } from "./generated/ext.js";
import { expectData, expectOk } from "./response.js";

/** A model version with the aliases that name it. */
export type ModelVersionWithAliases = components["schemas"]["ModelVersionWithAliases"];
/** An alias of a model and the number of the version it names. */
export type RegisteredModelAlias = components["schemas"]["RegisteredModelAlias"];

export class ModelAliasClient extends ClientCore {
  /** Points `alias` of the model at `version` (moving it from the version it named before). */
  async setRegisteredModelAlias(name: string, alias: string, version: string | number): Promise<void> {
    await expectOk(
      this.ext.POST("/api/2.0/tracker/registered-models/alias", { body: { name, alias, version: String(version) } }),
    );
  }

  /** Removes the alias; an alias the model does not have changes nothing. */
  async deleteRegisteredModelAlias(name: string, alias: string): Promise<void> {
    await expectOk(this.ext.DELETE("/api/2.0/tracker/registered-models/alias", { body: { name, alias } }));
  }

  /** Every alias of the model with the version it names, in alphabetical order. */
  async listRegisteredModelAliases(name: string): Promise<RegisteredModelAlias[]> {
    const data = await expectData(
      this.ext.GET("/api/2.0/tracker/registered-models/aliases", { params: { query: { name } } }),
    );
    return data.aliases;
  }

  /** The version `models:/<name>@<alias>` names. */
  async getModelVersionByAlias(name: string, alias: string): Promise<ModelVersionWithAliases> {
    const data = await expectData(
      this.ext.GET("/api/2.0/tracker/registered-models/alias", { params: { query: { name, alias } } }),
    );
    return data.model_version;
  }
}
