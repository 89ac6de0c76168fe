import { recordChange } from "../../core/auth/audit.js";
import type { DispatchedHandler, HandlerTable, OperationId, UntypedContext } from "../operation-handler.js";
import { principalOf } from "./principal.js";

/**
 * The audit trail (issue 29, item 8): every change to users, permissions and access tokens made
 * through the API is recorded once it succeeded: who (the signed-in user), what (the operation),
 * on what (the target), when, and the change's non-secret fields. Refused and failed calls change
 * nothing and are not recorded. Read with `GET /api/2.0/tracker/audit/list` (admins).
 */

type Input = Record<string, unknown>;
type Answer = Record<string, unknown> | undefined;
interface Audited {
  target(input: Input, answer: Answer): string;
  details?(input: Input, answer: Answer): Record<string, unknown>;
}

const text = (value: unknown): string => (typeof value === "string" || typeof value === "number" ? String(value) : "");
const user: Audited = { target: (input) => `user:${text(input.username)}` };
const onExperiment: Audited = {
  target: (input) => `experiment:${text(input.experiment_id)}`,
  details: (input) => ({ username: input.username, ...(input.permission ? { permission: input.permission } : {}) }),
};
const onModel: Audited = {
  target: (input) => `registered_model:${text(input.name)}`,
  details: (input) => ({ username: input.username, ...(input.permission ? { permission: input.permission } : {}) }),
};

/** The operations that change users, permissions or tokens, and how to name their target. */
export const AUDITED_OPERATIONS: Partial<Record<OperationId, Audited>> = {
  createUser: user,
  updateUserPassword: user,
  updateUserAdmin: { ...user, details: (input) => ({ is_admin: input.is_admin }) },
  deleteUser: user,
  createExperimentPermission: onExperiment,
  updateExperimentPermission: onExperiment,
  deleteExperimentPermission: onExperiment,
  createRegisteredModelPermission: onModel,
  updateRegisteredModelPermission: onModel,
  deleteRegisteredModelPermission: onModel,
  createAccessToken: {
    target: (_input, answer) => `access_token:${text((answer?.access_token as Input | undefined)?.id)}`,
    details: (_input, answer) => {
      const token = (answer?.access_token ?? {}) as Input;
      return {
        name: token.name,
        username: token.username,
        ...(token.expires_at ? { expires_at: token.expires_at } : {}),
      };
    },
  },
  revokeAccessToken: { target: (input) => `access_token:${text(input.id)}` },
};

function audited(id: OperationId, spec: Audited, handler: DispatchedHandler): DispatchedHandler {
  return async (ctx: UntypedContext) => {
    const answer = await handler(ctx);
    const principal = principalOf(ctx.res);
    // Refused (the guard already answered) or auth off: nothing changed, or nobody to name.
    if (ctx.res.headersSent || principal === undefined) return answer;
    const input = ctx.input as Input;
    await recordChange(ctx.services.knex, {
      actor: principal.id === undefined ? "shared-token" : principal.username,
      action: id,
      target: spec.target(input, answer as Answer),
      details: spec.details?.(input, answer as Answer) ?? {},
    });
    return answer;
  };
}

/** The handler table with the changes of AUDITED_OPERATIONS recorded. */
export function auditHandlers(handlers: HandlerTable): HandlerTable {
  const table: Record<string, DispatchedHandler> = { ...(handlers as Record<string, DispatchedHandler>) };
  for (const [id, spec] of Object.entries(AUDITED_OPERATIONS)) {
    const handler = table[id];
    if (handler && spec) table[id] = audited(id as OperationId, spec, handler);
  }
  return table as HandlerTable;
}
