import type { Knex } from "knex";
import { runSqlScript } from "../sql-script.js";

/**
 * Sign-in sessions of the web UI (issue 29): the SHA-256 of each session id (256 random bits in
 * the browser's HttpOnly cookie, so a fast hash is enough and a lookup is one index probe), its
 * user and its expiry. A session goes with its user (ON DELETE CASCADE).
 */
export async function up(knex: Knex): Promise<void> {
  await runSqlScript(
    knex,
    `
    CREATE TABLE web_sessions (
      id_sha256      text PRIMARY KEY,
      user_id        bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      created_at_ms  bigint NOT NULL,
      expires_at_ms  bigint NOT NULL
    );
    CREATE INDEX web_sessions_user_idx ON web_sessions (user_id);
    CREATE INDEX web_sessions_expiry_idx ON web_sessions (expires_at_ms);
    `,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP TABLE IF EXISTS web_sessions");
}
