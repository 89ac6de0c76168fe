import fs from "node:fs";
import pg from "pg";

/**
 * The raw side replays exactly the SQL the server issued. With `log_statement = 'all'` switched on
 * for a moment, the bench sends one request per scenario and reads, from PostgreSQL's own log,
 * every statement the server's connections executed for it: text, parameters (as the text the
 * server sent) and the backend pid, which tells connections (hence transactions and the queries
 * the server runs in parallel) apart.
 */

export interface Statement {
  pid: number;
  sql: string;
  /** Parameters of an extended-protocol statement; undefined for a simple query (BEGIN, COMMIT). */
  params?: Array<string | null>;
}

/** The statements of one HTTP request, grouped by server connection, in execution order. */
export interface CapturedRequest {
  sessions: Statement[][];
}

const PREFIX = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)? \S+ \[(\d+)\] (\w+): {2}([\s\S]*)$/;

interface Entry {
  pid: number;
  level: string;
  text: string;
}

function logEntries(text: string): Entry[] {
  const entries: Entry[] = [];
  for (const line of text.split("\n")) {
    const m = PREFIX.exec(line);
    if (m) entries.push({ pid: Number(m[1]), level: m[2], text: m[3] });
    else if (entries.length > 0 && line !== "") entries[entries.length - 1].text += `\n${line}`;
  }
  return entries;
}

/** Parses `$1 = 'a''b', $2 = NULL` (the DETAIL line of a logged execute). */
export function parseParameters(text: string): Array<string | null> {
  const values: Array<string | null> = [];
  let i = 0;
  const expect = (s: string) => {
    if (!text.startsWith(s, i)) throw new Error(`cannot parse logged parameters at ${i}: ${text.slice(i, i + 40)}`);
    i += s.length;
  };
  while (i < text.length) {
    const m = /^\$(\d+) = /.exec(text.slice(i, i + 20));
    if (!m) throw new Error(`cannot parse logged parameters at ${i}: ${text.slice(i, i + 40)}`);
    if (Number(m[1]) !== values.length + 1) throw new Error(`parameters out of order at $${m[1]}`);
    i += m[0].length;
    if (text.startsWith("NULL", i)) {
      values.push(null);
      i += 4;
    } else {
      expect("'");
      let value = "";
      for (;;) {
        const q = text.indexOf("'", i);
        if (q === -1) throw new Error("unterminated logged parameter");
        value += text.slice(i, q);
        i = q + 1;
        if (text[i] === "'") {
          value += "'";
          i += 1;
        } else break;
      }
      values.push(value);
    }
    if (i < text.length) expect(", ");
  }
  return values;
}

/** Statements of the server's connections in a slice of the log (all pids but `excludePid`). */
export function parseStatements(logText: string, excludePids: number[]): Statement[] {
  const statements: Statement[] = [];
  for (const entry of logEntries(logText)) {
    if (excludePids.includes(entry.pid)) continue;
    if (entry.level === "LOG") {
      const simple = /^statement: ([\s\S]*)$/.exec(entry.text);
      const extended = /^execute [^:]*: ([\s\S]*)$/.exec(entry.text);
      if (simple) statements.push({ pid: entry.pid, sql: simple[1] });
      else if (extended) statements.push({ pid: entry.pid, sql: extended[1], params: [] });
    } else if (entry.level === "DETAIL" && entry.text.startsWith("parameters: ")) {
      const last = statements.findLast((s) => s.pid === entry.pid);
      if (!last?.params) throw new Error("parameters without a statement in the log");
      last.params = parseParameters(entry.text.slice("parameters: ".length));
    }
  }
  return statements;
}

export function groupSessions(statements: Statement[]): CapturedRequest {
  const byPid = new Map<number, Statement[]>();
  for (const s of statements) byPid.set(s.pid, [...(byPid.get(s.pid) ?? []), s]);
  return { sessions: [...byPid.values()] };
}

/**
 * Runs `send` (one HTTP request) with statement logging switched on, and returns the statements
 * the server's connections executed meanwhile.
 */
export async function withStatementLog(
  url: string,
  logFile: string,
  send: () => Promise<void>,
): Promise<CapturedRequest> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const adminPid = Number((await admin.query("SELECT pg_backend_pid() AS pid")).rows[0].pid);
  try {
    await admin.query("ALTER SYSTEM SET log_statement = 'all'");
    await admin.query("SELECT pg_reload_conf()");
    // Backends pick the new setting up at their next command; the reload itself takes a moment.
    await new Promise((r) => setTimeout(r, 300));
    const offset = fs.statSync(logFile).size;
    await send();
    // Statements are logged when they start; give the log writer a moment.
    await new Promise((r) => setTimeout(r, 200));
    const size = fs.statSync(logFile).size;
    const buffer = Buffer.alloc(size - offset);
    const fd = fs.openSync(logFile, "r");
    try {
      fs.readSync(fd, buffer, 0, buffer.length, offset);
    } finally {
      fs.closeSync(fd);
    }
    return groupSessions(parseStatements(buffer.toString("utf8"), [adminPid]));
  } finally {
    await admin.query("ALTER SYSTEM RESET log_statement");
    await admin.query("SELECT pg_reload_conf()");
    await admin.end();
  }
}

/** The captured request with every occurrence of `from` in its parameters replaced by `to`. */
export function substitute(request: CapturedRequest, pairs: Array<[string, string]>): CapturedRequest {
  if (pairs.length === 0) return request;
  const swap = (v: string | null) => {
    if (v === null) return v;
    let out = v;
    for (const [from, to] of pairs) if (out.includes(from)) out = out.split(from).join(to);
    return out;
  };
  return {
    sessions: request.sessions.map((s) => s.map((st) => (st.params ? { ...st, params: st.params.map(swap) } : st))),
  };
}

export function describe(request: CapturedRequest): string {
  const lines: string[] = [];
  request.sessions.forEach((session, i) => {
    lines.push(`-- connection ${i + 1}`);
    for (const st of session) {
      const sql = st.sql.length > 400 ? `${st.sql.slice(0, 400)} ... (${st.sql.length} characters)` : st.sql;
      lines.push(`${sql.replace(/\s+/g, " ")}${st.params ? `  -- ${st.params.length} parameters` : ""}`);
    }
  });
  return lines.join("\n");
}
