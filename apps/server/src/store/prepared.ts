import type { Knex } from "knex";

/**
 * Runs a statement of the hot path as a named prepared statement when a name is given: PostgreSQL
 * parses and plans it once per connection, later requests send only its parameters. The name
 * must always stand for the same SQL text. (PGlite ignores the name.)
 */
export function preparedFor(query: Knex.Raw, name: string | undefined): Promise<{ rows: unknown[] }> {
  return (name === undefined ? query : query.options({ name })) as unknown as Promise<{ rows: unknown[] }>;
}
