import type { Response } from "express";
import { TrackerError } from "../../core/errors.js";
import { createAccessToken, listAccessTokens, revokeAccessToken } from "../../core/auth/tokens.js";
import * as users from "../../core/auth/users.js";
import { changePassword } from "../../core/auth/password-change.js";
import { handlerTable } from "../operation-handler.js";
import { principalOf, type Principal } from "./principal.js";
import { webSessionOf } from "./session.js";

/**
 * spec/auth.yaml: MLflow's basic-auth REST API (users, experiment and registered-model permissions)
 * and tracker's personal access tokens. Who may call each is rules.ts's business; these only do it.
 * With users and permissions off they do not exist (404 ENDPOINT_NOT_FOUND), as in MLflow.
 */

function caller(res: Response): Principal {
  const principal = principalOf(res);
  if (!principal)
    throw new TrackerError(
      "ENDPOINT_NOT_FOUND",
      "Users and permissions are off: start the server with --auth users (or --app-name basic-auth)",
    );
  return principal;
}

/** The caller as a user of the database (the shared token has none). */
async function callerUser(res: Response): Promise<Principal & { id: number }> {
  const principal = caller(res);
  if (principal.id === undefined)
    throw new TrackerError("BAD_REQUEST", "The shared TRACKER_AUTH_TOKEN is no user: sign in as one");
  return principal as Principal & { id: number };
}

export const authHandlers = handlerTable({
  async createUser({ input, services, res }) {
    caller(res);
    const user = await users.createUser(services.knex, input.username, input.password);
    return { user: await users.userJson(services.knex, user.username) };
  },

  async getUser({ input, services, res }) {
    caller(res);
    return { user: await users.userJson(services.knex, input.username) };
  },

  async getCurrentUser({ services, res }) {
    const me = await callerUser(res);
    return { user: await users.userJson(services.knex, me.username) };
  },

  async listUsers({ services, res }) {
    caller(res);
    const all = await users.listUsers(services.knex);
    return { users: all.map((u) => ({ id: u.id, username: u.username, is_admin: u.isAdmin })) };
  },

  async updateUserPassword({ input, services, res }) {
    caller(res);
    // The user's other web sessions end; the one the change is made from stays signed in.
    await changePassword(services.knex, input.username, input.password, webSessionOf(res)?.id);
    return {};
  },

  async updateUserAdmin({ input, services, res }) {
    caller(res);
    await users.updateAdmin(services.knex, input.username, input.is_admin);
    return {};
  },

  async deleteUser({ input, services, res }) {
    caller(res);
    await users.deleteUser(services.knex, input.username);
    return {};
  },

  async createExperimentPermission({ input, services, res }) {
    caller(res);
    const made = await users.createPermission(
      services.knex,
      "experiment",
      input.experiment_id,
      input.username,
      input.permission,
    );
    return { experiment_permission: { experiment_id: input.experiment_id, ...made } };
  },

  async getExperimentPermission({ input, services, res }) {
    caller(res);
    const found = await users.getPermission(services.knex, "experiment", input.experiment_id, input.username);
    return { experiment_permission: { experiment_id: input.experiment_id, ...found } };
  },

  async updateExperimentPermission({ input, services, res }) {
    caller(res);
    await users.changePermission(services.knex, "experiment", input.experiment_id, input.username, input.permission);
    return {};
  },

  async deleteExperimentPermission({ input, services, res }) {
    caller(res);
    await users.removePermission(services.knex, "experiment", input.experiment_id, input.username);
    return {};
  },

  async createRegisteredModelPermission({ input, services, res }) {
    caller(res);
    const made = await users.createPermission(
      services.knex,
      "registered_model",
      input.name,
      input.username,
      input.permission,
    );
    return { registered_model_permission: { name: input.name, ...made } };
  },

  async getRegisteredModelPermission({ input, services, res }) {
    caller(res);
    const found = await users.getPermission(services.knex, "registered_model", input.name, input.username);
    return { registered_model_permission: { name: input.name, ...found } };
  },

  async updateRegisteredModelPermission({ input, services, res }) {
    caller(res);
    await users.changePermission(services.knex, "registered_model", input.name, input.username, input.permission);
    return {};
  },

  async deleteRegisteredModelPermission({ input, services, res }) {
    caller(res);
    await users.removePermission(services.knex, "registered_model", input.name, input.username);
    return {};
  },

  async createAccessToken({ input, services, res }) {
    const me = await callerUser(res);
    const { token, info } = await createAccessToken(services.knex, me, input.name, input.expires_at);
    return { token, access_token: info };
  },

  async listAccessTokens({ input, services, res }) {
    const me = caller(res);
    const named = input.username ?? me.username;
    const owner = named === me.username && me.id !== undefined ? me : await users.getUser(services.knex, named);
    return { access_tokens: await listAccessTokens(services.knex, { id: owner.id as number, username: named }) };
  },

  async revokeAccessToken({ input, services, res }) {
    const me = caller(res);
    await revokeAccessToken(services.knex, { id: me.id ?? -1, isAdmin: me.isAdmin }, input.id);
    return {};
  },
});
