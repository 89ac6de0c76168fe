import type { Knex } from "knex";
import type pg from "pg";
import { queryNamed } from "./named-query.js";

/**
 * Statements of the hot path (log-metric, runs/get, runs/create, ...). On PostgreSQL they go
 * straight to a `pg` connection of knex's pool as named prepared statements: PostgreSQL parses and
 * plans one once per connection, later requests send only its parameters, and knex does not
 * rewrite the statement's `?` placeholders (a walk over several KB of SQL per request) nor build
 * its query objects. Inside a transaction, on PGlite, and for statements without a name they go
 * through knex as before. A name must always stand for the same SQL text.
 */

/** `?` placeholders as PostgreSQL's `$1, $2, ...` (the statements of this folder have no literal `?`). */
export function numberedPlaceholders(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

/** knex's pool, as the pg dialect hands out its connections (not part of knex's public types). */
interface PooledClient {
  config: { client?: unknown };
  acquireConnection(): Promise<pg.Client>;
  releaseConnection(connection: pg.Client): Promise<unknown>;
}

/**
 * Tells knex's "query" listeners (tests count statements with them) about a statement sent past
 * knex; nothing is built when no one listens.
 */
function announce(db: Knex, sql: string, bindings: readonly Binding[]): void {
  if (db.listenerCount("query") > 0) db.emit("query", { sql, bindings, method: "raw" });
}

const onPg = (db: Knex): boolean => !db.isTransaction && (db.client as PooledClient).config.client === "pg";

/**
 * SQL text with `$n` placeholders, by statement name: derived from this build's SQL, never from
 * data, so it cannot go stale when another server process writes.
 */
const numbered = new Map<string, string>();

type Scalar = string | number | boolean | null;
/** A statement parameter; an array goes as a PostgreSQL array (e.g. for unnest()). */
export type Binding = Scalar | readonly Scalar[];

function numberedFor(name: string, sql: string): string {
  let text = numbered.get(name);
  if (text === undefined) {
    text = numberedPlaceholders(sql);
    numbered.set(name, text);
  }
  return text;
}

/**
 * Runs `sql` (with `?` placeholders) with `bindings`; `name` makes it a named prepared statement
 * on PostgreSQL (see above).
 */
export async function runStatement(
  db: Knex,
  sql: string,
  bindings: readonly Binding[],
  name?: string,
): Promise<{ rows: unknown[] }> {
  if (name === undefined || !onPg(db)) return preparedFor(db.raw(sql, bindings as readonly Knex.RawBinding[]), name);
  const text = numberedFor(name, sql);
  const client = db.client as PooledClient;
  const connection = await client.acquireConnection();
  try {
    announce(db, text, bindings);
    return await queryNamed(connection, name, text, bindings);
  } finally {
    await client.releaseConnection(connection);
  }
}

/**
 * Runs a knex statement as a named prepared statement when a name is given (PGlite ignores the
 * name). For the statements that runStatement does not take.
 */
export function preparedFor(query: Knex.Raw, name: string | undefined): Promise<{ rows: unknown[] }> {
  return (name === undefined ? query : query.options({ name })) as unknown as Promise<{ rows: unknown[] }>;
}

/** Runs a statement (`?` placeholders; `name` prepares it by name on PostgreSQL) and gives its rows. */
export type StatementRunner = (sql: string, bindings: readonly Binding[], name?: string) => Promise<unknown[]>;

/**
 * Runs `work` in one transaction: on PostgreSQL on one `pg` connection of knex's pool (BEGIN,
 * the statements, COMMIT; ROLLBACK when `work` throws), elsewhere through knex's transaction.
 */
export async function inTransaction<T>(db: Knex, work: (run: StatementRunner) => Promise<T>): Promise<T> {
  if (!onPg(db)) {
    return db.transaction((trx) =>
      work(
        async (sql, bindings, name) =>
          (await preparedFor(trx.raw(sql, bindings as readonly Knex.RawBinding[]), name)).rows,
      ),
    );
  }
  const client = db.client as PooledClient;
  const connection = await client.acquireConnection();
  try {
    announce(db, "BEGIN;", []);
    await connection.query("BEGIN");
    let result: T;
    try {
      result = await work(async (sql, bindings, name) => {
        if (name === undefined) {
          const text = numberedPlaceholders(sql);
          announce(db, text, bindings);
          return (await connection.query({ text, values: bindings as Binding[] })).rows;
        }
        const text = numberedFor(name, sql);
        announce(db, text, bindings);
        return (await queryNamed(connection, name, text, bindings)).rows;
      });
    } catch (err) {
      announce(db, "ROLLBACK", []);
      await connection.query("ROLLBACK").catch(() => undefined);
      throw err;
    }
    announce(db, "COMMIT;", []);
    await connection.query("COMMIT");
    return result;
  } finally {
    await client.releaseConnection(connection);
  }
}
