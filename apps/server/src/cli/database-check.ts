import pg from "pg";
export { redactUrl } from "../db/redact-url.js";

/** Connects once to a PostgreSQL URL so an unreachable database gives one clear line, fast. */
export async function checkPostgresReachable(url: string, timeoutMs = 5000): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  client.on("error", () => undefined);
  try {
    await client.connect();
    await client.query("select 1");
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A URL with its password hidden, for messages. */
