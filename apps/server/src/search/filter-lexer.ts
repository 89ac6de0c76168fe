/**
 * Tokenizer of search filters and order_by clauses.
 *
 * Tokens:
 * - `word`: `[A-Za-z_][A-Za-z0-9_.\-/]*`: keywords (AND, OR, NOT, IN, LIKE, ILIKE, ASC, DESC, any
 *   case), bare attribute names and prefixed identifiers such as `metrics.val_loss` or
 *   `tags.mlflow.runName`. A word that ends with `.` (`metrics.`) is followed by a quoted key.
 * - `string`: `'...'` or `"..."`; the quote character inside is doubled (`'it''s'`). A backslash
 *   has no special meaning. Double-quoted tokens are keys after a prefix and values elsewhere.
 * - `backtick`: `` `...` `` (a doubled backtick inside stands for one), only valid as a key.
 * - `number`: `-?(digits[.digits]|.digits)([eE][+-]?digits)?`, not directly followed by a letter,
 *   digit, `_` or `.`.
 * - `op`: `=`, `!=`, `<>` (normalised to `!=`), `<`, `<=`, `>`, `>=`.
 * - `(`, `)`, `,` and a final `eof`.
 * Whitespace (space, tab, CR, LF) separates tokens. Anything else is an error.
 */

export type TokenKind = "word" | "string" | "backtick" | "number" | "op" | "lparen" | "rparen" | "comma" | "eof";

export interface Token {
  kind: TokenKind;
  /** Decoded text: the word, the unquoted string, the operator, the number's source text. */
  value: string;
  /** Numeric value of a `number` token. */
  number?: number;
  /** Quote character of a `string` token. */
  quote?: "'" | '"';
  /** 0-based offset of the first character in the source. */
  start: number;
  /** 0-based offset just after the last character. */
  end: number;
}

/** Reports an error at a 0-based offset; never returns. */
export type Fail = (offset: number, message: string) => never;

const isSpace = (c: string) => c === " " || c === "\t" || c === "\n" || c === "\r";
const isDigit = (c: string | undefined) => c !== undefined && c >= "0" && c <= "9";
const isWordStart = (c: string) => (c >= "A" && c <= "Z") || (c >= "a" && c <= "z") || c === "_";
const isWordPart = (c: string) => isWordStart(c) || isDigit(c) || c === "." || c === "-" || c === "/";
const NUMBER = /-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/y;

/** Splits `source` into tokens, ending with an `eof` token at `source.length`. */
export function tokenize(source: string, fail: Fail): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const n = source.length;
  while (i < n) {
    const c = source[i];
    if (isSpace(c)) {
      i++;
      continue;
    }
    const start = i;
    if (c === "(" || c === ")" || c === ",") {
      tokens.push({ kind: c === "(" ? "lparen" : c === ")" ? "rparen" : "comma", value: c, start, end: i + 1 });
      i++;
      continue;
    }
    if (c === "'" || c === '"' || c === "`") {
      let value = "";
      let j = i + 1;
      for (;;) {
        if (j >= n) {
          fail(
            start,
            c === "`" ? "unterminated quoted key (missing closing `)" : `unterminated string (missing closing ${c})`,
          );
        }
        if (source[j] === c) {
          if (source[j + 1] === c) {
            value += c;
            j += 2;
            continue;
          }
          break;
        }
        value += source[j];
        j++;
      }
      if (value.includes("\u0000")) fail(start, "strings and keys must not contain NUL characters");
      if (c === "`") tokens.push({ kind: "backtick", value, start, end: j + 1 });
      else tokens.push({ kind: "string", value, quote: c, start, end: j + 1 });
      i = j + 1;
      continue;
    }
    if (c === "=" || c === "<" || c === ">" || c === "!") {
      const two = source.slice(i, i + 2);
      let op: string;
      if (two === "!=" || two === "<=" || two === ">=") op = two;
      else if (two === "<>") op = "!=";
      else if (c === "!") fail(start, "unexpected character '!' (did you mean '!='?)");
      else op = c;
      const length = op === c ? 1 : 2;
      tokens.push({ kind: "op", value: op, start, end: i + length });
      i += length;
      continue;
    }
    if (
      isDigit(c) ||
      ((c === "." || c === "-") && (isDigit(source[i + 1]) || (source[i + 1] === "." && isDigit(source[i + 2]))))
    ) {
      NUMBER.lastIndex = i;
      const match = NUMBER.exec(source);
      if (!match) fail(start, "malformed number");
      const text = match[0];
      const after = source[i + text.length];
      if (after !== undefined && isWordPart(after) && after !== "-" && after !== "/") {
        fail(start, `malformed number '${source.slice(i, i + text.length + 1)}'`);
      }
      const value = Number(text);
      if (!Number.isFinite(value)) fail(start, `number '${text}' is out of range`);
      tokens.push({ kind: "number", value: text, number: value, start, end: i + text.length });
      i += text.length;
      continue;
    }
    if (isWordStart(c)) {
      let j = i + 1;
      while (j < n && isWordPart(source[j])) j++;
      tokens.push({ kind: "word", value: source.slice(i, j), start, end: j });
      i = j;
      continue;
    }
    fail(start, `unexpected character '${c}'`);
  }
  tokens.push({ kind: "eof", value: "", start: n, end: n });
  return tokens;
}

/** How a token is named in error messages. */
export function describeToken(token: Token): string {
  switch (token.kind) {
    case "eof":
      return "the end of the input";
    case "string":
      return `string ${token.quote}${token.value}${token.quote}`;
    case "backtick":
      return `\`${token.value}\``;
    case "number":
      return `number ${token.value}`;
    default:
      return `'${token.value}'`;
  }
}
