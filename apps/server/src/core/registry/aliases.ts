import { nowMs } from "../clock.js";
import { invalidParameter, notFound } from "../errors.js";
import type { Services } from "../services.js";
import * as store from "../../store/registry/aliases.js";
import { findModelVersionRow, loadModelVersion } from "../../store/registry/model-versions.js";
import { findRegisteredModelRow, updateRegisteredModelRow } from "../../store/registry/registered-models.js";
import { checkText } from "./checks.js";
import { modelNotFound, parseVersion, versionNotFound, type ModelAlias, type ModelVersionRecord } from "./model.js";

/**
 * Model aliases (MLflow 2.3+): a name such as `champion` for one version of one model. The database
 * keeps one version per alias per model (primary key) and drops an alias with its version.
 */

export const ALIAS_LIMITS = { maxChars: 255 } as const;

const ALIAS_PATTERN = /^[\w-]*$/;
const VERSION_ALIAS = /^[vV]\d+$/;

/** MLflow's rules for alias names: non-empty, `[\w-]`, at most 255 characters, not `latest`, not `v<n>`. */
export function checkAliasName(alias: string): void {
  if (alias === "") throw invalidParameter("Registered model alias name cannot be empty.");
  if (!ALIAS_PATTERN.test(alias)) {
    throw invalidParameter(
      `Invalid alias name: '${alias}'. Names may only contain alphanumerics, underscores (_), and dashes (-).`,
    );
  }
  if (alias.length > ALIAS_LIMITS.maxChars) {
    throw invalidParameter(
      `'Registered model alias name' exceeds the maximum length of ${ALIAS_LIMITS.maxChars} characters`,
    );
  }
  if (alias.toLowerCase() === "latest") throw invalidParameter("'latest' alias name (case insensitive) is reserved.");
  if (VERSION_ALIAS.test(alias)) throw invalidParameter(`Version alias name '${alias}' is reserved.`);
}

const aliasNotFound = (alias: string) => notFound(`Registered model alias ${alias} not found.`);

/** Points the alias at the version (moving it if it named another one). */
export async function setRegisteredModelAlias(
  services: Services,
  name: string,
  alias: string,
  versionText: string,
): Promise<void> {
  checkText("name", name);
  checkAliasName(alias);
  const version = parseVersion(name, versionText);
  await services.knex.transaction(async (trx) => {
    // Lock order of the registry: model row first.
    if (!(await findRegisteredModelRow(trx, name, true))) throw modelNotFound(name);
    if (!(await findModelVersionRow(trx, name, version))) throw versionNotFound(name, version);
    await store.upsertAlias(trx, name, alias, version);
    await updateRegisteredModelRow(trx, name, { last_updated_timestamp: nowMs() });
  });
}

/** Removes the alias; an alias the model does not have changes nothing (as in MLflow). */
export async function deleteRegisteredModelAlias(services: Services, name: string, alias: string): Promise<void> {
  checkText("name", name);
  checkAliasName(alias);
  await services.knex.transaction(async (trx) => {
    if (!(await findRegisteredModelRow(trx, name, true))) throw modelNotFound(name);
    if ((await store.deleteAlias(trx, name, alias)) > 0)
      await updateRegisteredModelRow(trx, name, { last_updated_timestamp: nowMs() });
  });
}

/** The version the alias names (what `models:/<name>@<alias>` resolves to). */
export async function getModelVersionByAlias(
  services: Services,
  name: string,
  alias: string,
): Promise<ModelVersionRecord> {
  checkText("name", name);
  checkText("alias", alias);
  const db = services.knex;
  if (!(await findRegisteredModelRow(db, name))) throw modelNotFound(name);
  const version = await store.findAliasVersion(db, name, alias);
  // A version deleted between the two reads took its alias with it.
  const record = version === undefined ? undefined : await loadModelVersion(db, name, version);
  if (!record) throw aliasNotFound(alias);
  return record;
}

/** All aliases of a model, ordered by alias (what the web UI's model and version pages show). */
export async function listRegisteredModelAliases(services: Services, name: string): Promise<ModelAlias[]> {
  checkText("name", name);
  const db = services.knex;
  if (!(await findRegisteredModelRow(db, name))) throw modelNotFound(name);
  return (await store.aliasesOf(db, [name])).get(name) ?? [];
}
