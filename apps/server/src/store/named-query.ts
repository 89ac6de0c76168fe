import { createRequire } from "node:module";
import pg from "pg";

/**
 * A named prepared statement run on a `pg` connection with less work per call than
 * `client.query({ name, text, values })`:
 * - pg copies a query config object property by property (`cloneQueryConfig`) before using it;
 *   this query is built from its text, which pg takes as it is;
 * - pg asks PostgreSQL to describe the result (its columns and their types) on every execution,
 *   parses that answer and looks up a type parser per column each time. A name always stands for
 *   the same SQL text (store/prepared.ts), so its result has the same columns each time: the first
 *   execution in this process describes them, later ones on a connection where the statement is
 *   prepared send only Bind, Execute and Sync, and their result takes the columns and parsers of
 *   that first description.
 * Everything else (type parsing, rows as objects, errors, the connection's query timeout,
 * preparing the statement on a connection that has not seen it) is pg's own.
 */

/** A result column as PostgreSQL describes it (pg-protocol's field description). */
interface Field {
  name: string;
  dataTypeID: number;
  format: string;
}

/** The part of pg's connection (not declared by @types/pg) that a query talks to. */
interface WireConnection {
  parsedStatements: Record<string, string | undefined>;
  submittedNamedStatements: Record<string, string | undefined>;
  bind(config: { portal: string; statement: string; values: unknown[]; binary: boolean; valueMapper: unknown }): void;
  execute(config: { portal: string; rows: undefined }): void;
  sync(): void;
  close(config: { type: "S"; name: string }): void;
}

/**
 * What pg's Result keeps of a row description (Result.addFields) to parse rows: the columns, a
 * type parser per column and an empty row to copy. Not declared by @types/pg; if a pg upgrade
 * renamed them, rows would not parse and store/named-query.test.ts fails.
 */
interface ResultColumns {
  fields: Field[];
  _parsers: unknown[];
  _prebuiltEmptyResultObject: object;
}

/** pg.Query's members that this class uses or overrides (@types/pg declares only its events). */
interface QueryInternals {
  _result: ResultColumns;
  _accumulateRows: boolean;
  name: string;
  values: unknown[];
  binary: boolean;
  hasBeenParsed(connection: WireConnection): boolean;
  prepare(connection: WireConnection): void;
  handleRowDescription(message: { fields: Field[] }): void;
  handleError(err: unknown, connection: WireConnection): void;
}

/** pg's own mapping of parameters to their text form (dates, arrays, buffers, ...), as its queries bind them. */
const { prepareValue } = createRequire(import.meta.url)("pg/lib/utils.js") as {
  prepareValue: (value: unknown) => unknown;
};

/** The result columns of each named statement, from its first execution in this process. */
const columnsByName = new Map<string, ResultColumns>();

type Callback = (err: Error | null, result: pg.QueryResult) => void;

const QueryBase = pg.Query as unknown as new (
  text: string,
  values: readonly unknown[],
  callback: Callback,
) => QueryInternals & pg.Query;

class NamedQuery extends QueryBase {
  constructor(name: string, text: string, values: readonly unknown[], callback: Callback) {
    super(text, values, callback);
    this.name = name;
  }

  override handleRowDescription(message: { fields: Field[] }): void {
    super.handleRowDescription(message);
    const { fields, _parsers, _prebuiltEmptyResultObject } = this._result;
    columnsByName.set(this.name, { fields, _parsers, _prebuiltEmptyResultObject });
  }

  override prepare(connection: WireConnection): void {
    const columns = columnsByName.get(this.name);
    if (columns === undefined || !this.hasBeenParsed(connection)) {
      super.prepare(connection);
      return;
    }
    // As pg's prepare, without the Describe (and Parse, which hasBeenParsed already rules out).
    try {
      connection.bind({
        portal: "",
        statement: this.name,
        values: this.values,
        binary: this.binary,
        valueMapper: prepareValue,
      });
    } catch (err) {
      connection.close({ type: "S", name: this.name });
      connection.sync();
      this.handleError(err, connection);
      return;
    }
    // What handleRowDescription would set up from the description (read-only, so shared).
    Object.assign(this._result, columns);
    this._accumulateRows = true;
    connection.execute({ portal: "", rows: undefined });
    connection.sync();
  }
}

/** Runs the named statement `name` (SQL `text` with `$n` placeholders) on `connection`. */
export function queryNamed(
  connection: pg.ClientBase,
  name: string,
  text: string,
  values: readonly unknown[],
): Promise<pg.QueryResult> {
  return new Promise((resolve, reject) => {
    connection.query(new NamedQuery(name, text, values, (err, result) => (err ? reject(err) : resolve(result))));
  });
}
