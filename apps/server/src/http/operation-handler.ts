import type { Request, Response } from "express";
import type { operations as OperationsA } from "@tracker/types/rev-a";
import type { operations as OperationsB } from "@tracker/types/rev-b";
import type { operations as OperationsC } from "@tracker/types/rev-c";
import type { operations as OperationsExt } from "@tracker/types/ext";
import type { operations as OperationsAuth } from "@tracker/types/auth";
import type { Revision, SpecName } from "./revisions.js";
import type { Services } from "../core/services.js";
import type { JsonText } from "./json-text.js";

/**
 * Handlers are typed from the generated types (@tracker/types) by operationId. One handler serves an
 * operationId in every document that has it; its context is a union with one member per document,
 * told apart by `revision` (so `if (revision === "c")` narrows `input` to C's request), and its
 * answer is the field-wise union of those documents' 200 bodies. A spec change that breaks a
 * handler (a renamed request or response field, a changed type) fails `pnpm typecheck`.
 */

/** The generated operations of each document the server validates against. */
interface Operations {
  a: OperationsA;
  b: OperationsB;
  c: OperationsC;
  ext: OperationsExt;
  auth: OperationsAuth;
}

/** Every operationId of every document. */
export type OperationId = { [S in SpecName]: keyof Operations[S] }[SpecName];

/** The documents that have operation `Id`. */
type SpecsOf<Id extends OperationId> = { [S in SpecName]: Id extends keyof Operations[S] ? S : never }[SpecName];

type OperationOf<S extends SpecName, Id extends OperationId> = Id extends keyof Operations[S]
  ? Operations[S][Id]
  : never;

type JsonOf<Content> = Content extends { content: { "application/json": infer Body } } ? Body : never;

/** Query parameters of an operation, or `{}`. */
type QueryOf<Op> = Op extends { parameters: { query?: infer Query } }
  ? [Query] extends [undefined]
    ? Record<string, never>
    : NonNullable<Query>
  : Record<string, never>;

/** The JSON request body of an operation, or else its query parameters (GET). */
type RequestOf<Op> = Op extends { requestBody?: infer Body }
  ? [JsonOf<NonNullable<Body>>] extends [never]
    ? QueryOf<Op>
    : JsonOf<NonNullable<Body>>
  : QueryOf<Op>;

/** The JSON body of an operation's 200 answer (never for answers that are not JSON: files, streams). */
type AnswerOf<Op> = Op extends { responses: { 200: infer Ok } } ? JsonOf<Ok> : never;

/** ext.yaml's operations follow revision C's conventions. */
type RevisionOf<S extends SpecName> = S extends "ext" | "auth" ? "c" : S;

/** What every handler gets besides its input. */
export interface CommonContext {
  services: Services;
  req: Request;
  res: Response;
  /**
   * The request came through MLflow's paths (segment `mlflow`): answers carry MLflow 2.x's fields
   * (aliases, run inputs) and `services.limits` are MLflow 2.x's value limits.
   */
  mlflow: boolean;
}

/**
 * What a handler of `Id` gets: the revision that matched, its validated input (the query string for
 * GET, the JSON body otherwise) and the core services. One member per document that has `Id`.
 */
export type OperationContext<Id extends OperationId> = {
  [S in SpecsOf<Id>]: CommonContext & {
    revision: RevisionOf<S>;
    input: RequestOf<OperationOf<S, Id>>;
  };
}[SpecsOf<Id>];

type KeysOf<U> = U extends unknown ? keyof U : never;
type ValueAt<U, K extends PropertyKey> = U extends unknown ? (K extends keyof U ? U[K] : never) : never;
type OptionalKeysOf<T> = { [K in keyof T]-?: object extends Pick<T, K> ? K : never }[keyof T];
/** Keys that some member of U lacks or has optional. */
type OptionalSomewhere<U, All extends PropertyKey = KeysOf<U>> = U extends unknown
  ? Exclude<All, Exclude<keyof U, OptionalKeysOf<U>>>
  : never;

/** `X[] | Y[]` as `(X | Y)[]`, so that one list may hold the items of any revision's list. */
type ListsMerged<V> = [Extract<V, readonly unknown[]>] extends [never]
  ? V
  : Exclude<V, readonly unknown[]> | Array<Extract<V, readonly unknown[]>[number]>;

/**
 * One object type from a union of object types: every field of any member, with the union of its
 * types; required where every member requires it. `{a: number} | {a: string, b?: x}` gives
 * `{a: number | string, b?: x}`.
 */
export type FieldwiseUnion<U> = [U] extends [never]
  ? never
  : {
      [K in Exclude<KeysOf<U>, OptionalSomewhere<U>>]: ListsMerged<ValueAt<U, K>>;
    } & {
      [K in OptionalSomewhere<U>]?: ListsMerged<Exclude<ValueAt<U, K>, undefined>>;
    };

/**
 * What a handler of `Id` answers: the field-wise union of the 200 bodies of the documents that
 * have `Id` (the shapes of nested values per revision are checked where they are built, shapes.ts).
 */
export type OperationAnswer<Id extends OperationId> = FieldwiseUnion<
  { [S in SpecsOf<Id>]: AnswerOf<OperationOf<S, Id>> }[SpecsOf<Id>]
>;

/**
 * A handler returns the JSON response body (or its JSON text, http/json-text.ts), or `undefined`
 * when it wrote the response itself (files, streams). Handlers are thin: parse input, call the core, shape the revision's response.
 */
export type OperationHandler<Id extends OperationId> = (
  ctx: OperationContext<Id>,
) => Promise<OperationAnswer<Id> | JsonText<OperationAnswer<Id>> | undefined>;

/**
 * Handlers by operationId, shared by all revisions (each handler branches on `revision`). Modules
 * declare theirs with `handlerTable({...})`, which types each handler by its key.
 */
export type HandlerTable = { readonly [Id in OperationId]?: OperationHandler<Id> };

/** Fields a table's handler for `Id` may answer with that no document of `Id` has (renamed or made up). */
type FieldsUnknownToSpec<Id, Handler> = Id extends OperationId
  ? Handler extends (...args: never[]) => Promise<infer Answer>
    ? Exclude<KeysOf<Exclude<Answer, undefined | JsonText>>, KeysOf<OperationAnswer<Id>>>
    : never
  : never;

/**
 * Declares handlers by operationId: each is typed by its key (as `HandlerTable` says), and a table
 * whose handler answers with a field the spec does not have fails to compile, naming the field
 * (TypeScript does not check returned object literals for unknown fields by itself).
 */
export const handlerTable = <Table extends HandlerTable>(
  table: Table & {
    [Id in keyof Table]: [FieldsUnknownToSpec<Id, Table[Id]>] extends [never]
      ? unknown
      : { "answers with fields the spec lacks": FieldsUnknownToSpec<Id, Table[Id]> };
  },
): Table => table;

/**
 * A handler as dispatch calls it: the validator has checked the input against the matched
 * document, which the static types cannot follow through Express.
 */
export interface UntypedContext extends CommonContext {
  revision: Revision;
  input: object;
}
export type DispatchedHandler = (ctx: UntypedContext) => Promise<object | undefined>;
