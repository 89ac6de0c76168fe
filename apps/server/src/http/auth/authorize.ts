import type { Request } from "express";
import {
  experimentNamed,
  experimentOfLoggedModel,
  experimentOfRun,
  may,
  readableBy,
  type Caller,
} from "../../core/auth/access.js";
import { allows } from "../../core/auth/permissions.js";
import { grantCreator } from "../../core/auth/users.js";
import type { Services } from "../../core/services.js";
import { answerObject } from "../json-text.js";
import type { DispatchedHandler, HandlerTable, OperationId, UntypedContext } from "../operation-handler.js";
import { PERMISSION_DENIED, principalOf, refuse } from "./principal.js";
import { OPERATION_RULES, type Rule, type Target } from "./rules.js";

/**
 * Enforcement, in one place: every handler of the table is wrapped so that, when users and
 * permissions are on, the operation's rule (rules.ts) is checked on the validated input before the
 * handler runs (403 PERMISSION_DENIED otherwise), searches see only what the caller may read, and
 * the creator of an experiment or registered model gets MANAGE on it. A resource that does not
 * exist is not refused here: the handler reports it as it always does.
 */

type Field = string | number | undefined;

const fieldOf = (input: object, name: string): Field => {
  const value = (input as Record<string, unknown>)[name];
  return typeof value === "string" || typeof value === "number" ? value : undefined;
};

const pathParam = (req: Request, name: string): string | undefined =>
  (req as Request & { openapi?: { pathParams?: Record<string, string> } }).openapi?.pathParams?.[name];

/** The experiment an artifact-service path names by its first segment (`<experiment_id>/<run_id>/artifacts/...`). */
function experimentOfArtifactPath(ctx: UntypedContext): string | undefined {
  const raw = pathParam(ctx.req, "artifact_path") ?? fieldOf(ctx.input, "path");
  const first = typeof raw === "string" ? raw.replace(/^\/+/, "").split("/")[0] : undefined;
  return first !== undefined && /^\d{1,18}$/.test(first) ? first : undefined;
}

type Resolved = { kind: "experiment" | "registered_model"; keys: Array<string | number> } | "default" | "missing";

/** The resources an operation's target names in its input. */
async function resolve(target: Target, ctx: UntypedContext): Promise<Resolved> {
  const db = ctx.services.knex;
  const experiments = (ids: Array<number | string | undefined>): Resolved =>
    ids.some((id) => id === undefined) ? "missing" : { kind: "experiment", keys: ids as Array<string | number> };
  if ("experiment" in target) return experiments([fieldOf(ctx.input, target.experiment) ?? "0"]);
  if ("experimentByName" in target) {
    const name = fieldOf(ctx.input, target.experimentByName);
    return experiments([name === undefined ? undefined : await experimentNamed(db, String(name))]);
  }
  if ("run" in target) {
    const runId = fieldOf(ctx.input, "run_id") ?? fieldOf(ctx.input, "run_uuid");
    return experiments([runId === undefined ? undefined : await experimentOfRun(db, String(runId))]);
  }
  if ("runs" in target) {
    const raw = (ctx.input as Record<string, unknown>)[target.runs];
    const ids = (Array.isArray(raw) ? raw : [raw]).filter((id): id is string => typeof id === "string");
    return experiments(await Promise.all(ids.map((id) => experimentOfRun(db, id))));
  }
  if ("model" in target) {
    const name = fieldOf(ctx.input, target.model);
    return name === undefined ? "missing" : { kind: "registered_model", keys: [String(name)] };
  }
  if ("loggedModel" in target) {
    const id = pathParam(ctx.req, "model_id") ?? fieldOf(ctx.input, "model_id");
    return experiments([id === undefined ? undefined : await experimentOfLoggedModel(db, String(id))]);
  }
  if ("runOrLoggedModel" in target) {
    const runId = fieldOf(ctx.input, "run_id");
    if (runId !== undefined && runId !== "") return resolve({ run: true }, ctx);
    return resolve({ loggedModel: true }, ctx);
  }
  const experiment = experimentOfArtifactPath(ctx);
  return experiment === undefined ? "default" : { kind: "experiment", keys: [experiment] };
}

/** Whether the caller may run the operation; false answers 403. */
async function permitted(rule: Rule, caller: Caller & { username: string }, ctx: UntypedContext): Promise<boolean> {
  const { knex, config } = ctx.services;
  if ("anyone" in rule || "narrowExperimentIds" in rule || "filterAnswer" in rule) return true;
  if (caller.isAdmin) return true;
  if ("admin" in rule) return false;
  if ("selfOrAdmin" in rule) {
    const named = fieldOf(ctx.input, "username");
    return named === undefined || String(named) === caller.username;
  }
  const resolved = await resolve(rule.on, ctx);
  if (resolved === "missing") return true;
  if (resolved === "default") return allows(config.authDefaultPermission, rule.need);
  for (const key of resolved.keys) {
    if (!(await may(knex, caller, resolved.kind, key, rule.need, config.authDefaultPermission))) return false;
  }
  return true;
}

/** Runs a search over experiments on the readable ones only; `empty` when none is left. */
async function narrowed(
  handler: DispatchedHandler,
  empty: object,
  caller: Caller,
  ctx: UntypedContext,
): Promise<object | undefined> {
  const input = ctx.input as Record<string, unknown>;
  const raw = typeof input.experiment_ids === "string" ? [input.experiment_ids] : input.experiment_ids;
  if (!Array.isArray(raw)) return handler(ctx);
  const readable = await readableBy(ctx.services.knex, caller, "experiment", ctx.services.config.authDefaultPermission);
  const kept = raw.filter((id) => readable(String(id)));
  if (kept.length === 0) return structuredClone(empty);
  return handler({ ...ctx, input: { ...input, experiment_ids: kept } });
}

/** Pages a listing reads at most to fill one answer; beyond, the answer is short but its token still right. */
export const MAX_REFILL_READS = 50;

/**
 * A listing's answer with only what the caller may read, refilled to the page size: while the page
 * is short and there is more, the next page is read asking for just the missing number of items,
 * so that the answer's `next_page_token` (the last page read) continues right after its last item.
 * The page size is the request's `max_results`, else that of the first, full, page.
 */
async function filtered(
  handler: DispatchedHandler,
  spec: { list: string; key: string; kind: "experiment" | "registered_model" },
  caller: Caller,
  ctx: UntypedContext,
): Promise<object | undefined> {
  // The handler's answer as an object (a page may come as its JSON text).
  const read = async (context: UntypedContext) => {
    const answer = await handler(context);
    return (answer && answerObject(answer)) as Record<string, unknown> | undefined;
  };
  const first = await read(ctx);
  const items = first?.[spec.list];
  if (!first || !Array.isArray(items)) return first;
  const { services } = ctx;
  const readable = await readableBy(services.knex, caller, spec.kind, services.config.authDefaultPermission);
  const keep = (list: unknown[]) =>
    list.filter((item) => readable(String((item as Record<string, unknown>)[spec.key])));
  const input = ctx.input as Record<string, unknown>;
  const asked = Number(input.max_results);
  const pageSize = Number.isSafeInteger(asked) && asked > 0 ? asked : items.length;
  const kept = keep(items);
  let last = first;
  for (let reads = 1; reads < MAX_REFILL_READS && kept.length < pageSize; reads++) {
    const token = last.next_page_token;
    if (typeof token !== "string" || token === "") break;
    const next = await read({ ...ctx, input: { ...input, page_token: token, max_results: pageSize - kept.length } });
    if (!next) break;
    // An empty list may be left out of an answer, as protobuf's JSON mapping does.
    const more = next[spec.list] ?? [];
    if (!Array.isArray(more)) break;
    kept.push(...keep(more));
    last = next;
  }
  // The token is the last read page's, or none when that page was the last.
  const { next_page_token: _first, ...answer } = first;
  const nextToken = last.next_page_token;
  return {
    ...answer,
    [spec.list]: kept,
    ...(typeof nextToken === "string" && nextToken ? { next_page_token: nextToken } : {}),
  };
}

/** Gives the creator MANAGE on what the operation created. */
async function grantToCreator(
  kind: "experiment" | "registered_model",
  answer: object | undefined,
  caller: Caller,
  services: Services,
): Promise<void> {
  if (caller.id === undefined || answer === undefined) return;
  const record = answer as { experiment_id?: string | number; registered_model?: { name?: string } };
  const key = kind === "experiment" ? record.experiment_id : record.registered_model?.name;
  if (key !== undefined) await grantCreator(services.knex, kind, kind === "experiment" ? Number(key) : key, caller.id);
}

function guarded(id: OperationId, handler: DispatchedHandler): DispatchedHandler {
  const rule = OPERATION_RULES[id];
  return async (ctx) => {
    const principal = principalOf(ctx.res);
    // Authentication off (or an operation the authenticator let through unauthenticated): as before.
    if (principal === undefined) return handler(ctx);
    if (!(await permitted(rule, principal, ctx))) {
      refuse(ctx.res, "PERMISSION_DENIED", PERMISSION_DENIED);
      return undefined;
    }
    if ("narrowExperimentIds" in rule) return narrowed(handler, rule.narrowExperimentIds.empty, principal, ctx);
    if ("filterAnswer" in rule) return filtered(handler, rule.filterAnswer, principal, ctx);
    const answer = await handler(ctx);
    if ("anyone" in rule && rule.grantCreator) await grantToCreator(rule.grantCreator, answer, principal, ctx.services);
    return answer;
  };
}

/** The handler table with every handler guarded by its operation's rule. */
export function authorizeHandlers(handlers: HandlerTable): HandlerTable {
  const table: Record<string, DispatchedHandler> = {};
  for (const [id, handler] of Object.entries(handlers as Record<string, DispatchedHandler | undefined>)) {
    if (handler) table[id] = guarded(id as OperationId, handler);
  }
  return table as HandlerTable;
}
