import type { Knex } from "knex";
import type { RawAnswer } from "./raw-http.js";
import { STATUS_OF_CODE, type ErrorCode } from "./server.js";

/** Assertions shared by the reliability tests: error answers, leaks, database snapshots. */

/** A fetch answer as a RawAnswer (raw-http.ts), the shape every raw check reads. */
export async function answerOf(response: Response): Promise<RawAnswer> {
  return { status: response.status, headers: Object.fromEntries(response.headers), text: await response.text() };
}

/** Sends one request with exactly the given bytes and headers; never throws for HTTP errors. */
export async function sendRaw(
  baseUrl: string,
  method: string,
  pathAndQuery: string,
  body?: Uint8Array | string,
  headers: Record<string, string> = {},
): Promise<RawAnswer> {
  const response = await fetch(`${baseUrl}${pathAndQuery}`, {
    // A server that never answers is a failure too, not a hung test.
    signal: AbortSignal.timeout(30_000),
    method,
    // Bytes, so fetch adds no Content-Type of its own.
    body: body === undefined ? undefined : typeof body === "string" ? Buffer.from(body, "utf8") : Buffer.from(body),
    headers,
  });
  return answerOf(response);
}

// Things a server must never show a client. Stack frames, source paths, driver and SQL texts.
const LEAK_PATTERNS: Array<[string, RegExp]> = [
  ["stack frame", /\n\s+at\s|\bat\s+[\w$.<>]+\s+\([^)]*:\d+:\d+\)|\bat\s+(file:\/\/)?\/[^\s]*:\d+:\d+/],
  ["source path", /(\/[\w.@-]+)+\.(ts|js|mjs|cjs):\d+|node_modules|node:internal/],
  [
    "PostgreSQL message",
    /syntax error at or near|violates (unique|foreign key|not-null|check) constraint|duplicate key value|invalid input syntax for|SQLSTATE|relation "[^"]*" does not exist|column "[^"]*" (does not exist|of relation)|current transaction is aborted|invalid byte sequence for encoding|out of range for type/i,
  ],
  ["SQL text", /\b(select|insert into|update|delete from)\s+("|\*|\w+\s*,)[\s\S]*\b(from|values|set|where)\b/i],
  ["driver name", /\bknex\b|PGlite|\bpg-protocol\b|TypeError|ReferenceError|RangeError|Cannot read propert/i],
];

/** The leaks found in a message, after removing every string the client itself sent. */
export function leaksIn(message: string, sentStrings: readonly string[] = []): string[] {
  let text = message;
  for (const s of [...sentStrings]
    .filter((x) => typeof x === "string" && x.length >= 3)
    .sort((a, b) => b.length - a.length)) {
    text = text.split(s).join(" ");
    text = text.split(JSON.stringify(s).slice(1, -1)).join(" ");
  }
  return LEAK_PATTERNS.filter(([, re]) => re.test(text)).map(([name]) => name);
}

/**
 * What is wrong with an answer that should be a client error: anything but 4xx, a body that is not
 * the error body, a code that does not match the status, or a leak in the message.
 */
export function errorAnswerProblems(answer: RawAnswer, sentStrings: readonly string[] = []): string[] {
  const problems: string[] = [];
  if (answer.status < 400 || answer.status >= 500) problems.push(`status ${answer.status} is not 4xx`);
  const contentType = answer.headers["content-type"];
  if (!/^application\/json/.test(contentType ?? "")) problems.push(`content-type ${contentType}`);
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    problems.push(`body is not JSON: ${answer.text.slice(0, 200)}`);
    return problems;
  }
  const { error_code: code, message } = (body ?? {}) as { error_code?: unknown; message?: unknown };
  if (typeof code !== "string" || !(code in STATUS_OF_CODE)) problems.push(`error_code ${JSON.stringify(code)}`);
  else if (STATUS_OF_CODE[code as ErrorCode] !== answer.status)
    problems.push(`error_code ${code} with status ${answer.status}`);
  if (typeof message !== "string" || message.length === 0) problems.push("message missing");
  else
    for (const leak of leaksIn(message, sentStrings))
      problems.push(`message shows a ${leak}: ${message.slice(0, 300)}`);
  const keys = Object.keys(body as object).sort();
  if (keys.join(",") !== "error_code,message") problems.push(`unexpected keys ${keys.join(",")}`);
  return problems;
}

export type Snapshot = Record<string, { rows: number; digest: string }>;

/**
 * Row count and the newest row version (max xmin) of every table, migrations bookkeeping aside.
 * Every committed INSERT or UPDATE writes rows with a new, larger transaction id and every DELETE
 * lowers the count, so any committed change shows; rolled-back work leaves no visible row. (A
 * content digest would do the same at many times the cost once the tables hold megabytes.)
 */
export async function snapshotDatabase(knex: Knex): Promise<Snapshot> {
  const tables = (
    await knex.raw<{ rows: Array<{ name: string }> }>(
      `SELECT table_name AS name FROM information_schema.tables
       WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name NOT LIKE 'knex\\_%'
       ORDER BY table_name`,
    )
  ).rows.map((r) => r.name);
  const union = tables
    .map(
      (t) => `SELECT '${t}' AS t, count(*)::int AS n, coalesce(max(x.xmin::text::bigint), 0)::text AS h FROM "${t}" x`,
    )
    .join(" UNION ALL ");
  const rows = (await knex.raw<{ rows: Array<{ t: string; n: number; h: string }> }>(union)).rows;
  return Object.fromEntries(rows.map((r) => [r.t, { rows: Number(r.n), digest: r.h }]));
}

/** The tables whose content differs between two snapshots. */
export function changedTables(before: Snapshot, after: Snapshot): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].filter((t) => before[t]?.digest !== after[t]?.digest || before[t]?.rows !== after[t]?.rows);
}

/** The error code and message a function throws (it must throw). */
export function thrownBy(fn: () => unknown): { code: string | undefined; message: string } {
  try {
    fn();
  } catch (err) {
    return { code: (err as { code?: string }).code, message: (err as Error).message };
  }
  throw new Error("expected an error");
}
