import type { Knex } from "knex";

/**
 * Runs a script of several SQL statements one by one (PGlite's extended protocol takes one
 * statement per query). Statements end with `;` at the end of a line; `--` comment lines are dropped.
 */
export async function runSqlScript(knex: Knex, script: string): Promise<void> {
  const statements = script
    .split("\n")
    .filter((line) => !line.trim().startsWith("--"))
    .join("\n")
    .split(/;\s*$/m)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  for (const statement of statements) await knex.raw(statement);
}
