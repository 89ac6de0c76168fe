/**
 * Reading tokens (filter-lexer.ts) and the identifiers that name a search's fields, shared by the
 * filter parser (filter-parser.ts) and the order_by parser (order-by.ts):
 *
 *   identifier := prefix "." key | prefix "." quoted-key | attribute
 *   quoted-key := '"' ... '"' | "`" ... "`"     (directly after the dot)
 *
 * What a prefix and an attribute may be comes from the search's vocabulary (dialects.ts). Prefixes,
 * attribute names and keywords are matched case-insensitively; keys are case-sensitive.
 */
import type { DatasetField, FieldOf, StringOperator } from "./ast.js";
import type { FieldType, FieldVocabulary } from "./dialects.js";
import { describeToken, type Fail, type Token } from "./filter-lexer.js";

const DATASET_FIELDS: readonly DatasetField[] = ["name", "digest", "context"];
const RESERVED = new Set(["AND", "OR", "NOT", "IN", "LIKE", "ILIKE"]);
const ENTITY_NAMES: Record<"metric" | "param" | "tag", string> = { metric: "metrics", param: "params", tag: "tags" };

/** A field as an identifier names it, with what the search allows of it. */
export interface ResolvedField<Attribute extends string> {
  field: FieldOf<Attribute>;
  type: FieldType;
  inAllowed: boolean;
  orderable: boolean;
  operators?: readonly StringOperator[];
  /** How the user wrote it, for messages. */
  text: string;
}

export const isKeyword = (token: Token, keyword: string) =>
  token.kind === "word" && token.value.toUpperCase() === keyword;

/** A cursor over one source's tokens that reports errors at their positions. */
export class TokenReader {
  private index = 0;

  constructor(
    private readonly tokens: Token[],
    readonly fail: Fail,
  ) {}

  peek(): Token {
    return this.tokens[this.index];
  }

  next(): Token {
    const token = this.tokens[this.index];
    if (token.kind !== "eof") this.index++;
    return token;
  }

  /** Fails at `token`: "<expected>, found <token>". */
  failAt(token: Token, expected: string): never {
    return this.fail(token.start, `${expected}, found ${describeToken(token)}`);
  }
}

/** Reads an identifier (a word, possibly `prefix.` directly followed by a quoted key) and resolves it. */
export function readField<Attribute extends string>(
  reader: TokenReader,
  vocabulary: FieldVocabulary<Attribute>,
): ResolvedField<Attribute> {
  const word = reader.peek();
  if (word.kind !== "word" || RESERVED.has(word.value.toUpperCase())) {
    reader.failAt(word, `expected ${vocabulary.identifiers}`);
  }
  reader.next();
  let prefix: string | undefined;
  let key: string;
  let text = word.value;
  if (Object.keys(vocabulary.entities).length === 0) {
    // No prefixes in this scope: the whole word names an attribute.
    key = word.value;
  } else if (word.value.indexOf(".") === word.value.length - 1) {
    prefix = word.value.slice(0, -1);
    const quoted = reader.peek();
    const isQuotedKey = (quoted.kind === "string" && quoted.quote === '"') || quoted.kind === "backtick";
    if (!isQuotedKey || quoted.start !== word.end) {
      reader.failAt(
        quoted,
        `expected a key directly after '${word.value}' (quote keys with special characters as ${word.value}"<key>" or ${word.value}\`<key>\`)`,
      );
    }
    reader.next();
    key = quoted.value;
    const quote = quoted.kind === "backtick" ? "`" : '"';
    text = `${word.value}${quote}${quoted.value}${quote}`;
  } else {
    const dot = word.value.indexOf(".");
    if (dot >= 0) {
      prefix = word.value.slice(0, dot);
      key = word.value.slice(dot + 1);
    } else {
      key = word.value;
    }
  }
  return resolve(reader, vocabulary, word, prefix, key, text);
}

function resolve<Attribute extends string>(
  reader: TokenReader,
  vocabulary: FieldVocabulary<Attribute>,
  word: Token,
  prefix: string | undefined,
  key: string,
  text: string,
): ResolvedField<Attribute> {
  const entity =
    prefix === undefined
      ? "attribute"
      : Object.hasOwn(vocabulary.entities, prefix.toLowerCase())
        ? vocabulary.entities[prefix.toLowerCase()]
        : undefined;
  if (entity === undefined) {
    const prefixesAttributes = Object.values(vocabulary.entities).includes("attribute");
    const known = vocabulary.keyed.map((e) => ENTITY_NAMES[e]).concat(prefixesAttributes ? ["attributes"] : []);
    reader.fail(word.start, `unknown entity '${prefix}' in '${text}'; expected ${known.join(", ")}`);
  }
  if (entity === "attribute") {
    const attribute = Object.hasOwn(vocabulary.attributes, key.toLowerCase())
      ? vocabulary.attributes[key.toLowerCase()]
      : undefined;
    if (!attribute) {
      const known = Object.keys(vocabulary.attributes).join(", ");
      const hint = prefix === undefined && vocabulary.unprefixedHint ? `; ${vocabulary.unprefixedHint}` : "";
      const noun = vocabulary.attributeNoun ?? "attribute";
      reader.fail(word.start, `unknown ${noun} '${key}' for ${vocabulary.name}; expected one of ${known}${hint}`);
    }
    return {
      field: { entity: "attribute", key: attribute.key },
      type: attribute.type,
      inAllowed: attribute.inAllowed,
      orderable: attribute.orderable,
      operators: attribute.operators,
      text,
    };
  }
  if (entity === "dataset") {
    const datasetKey = DATASET_FIELDS.find((f) => f === key.toLowerCase());
    if (!datasetKey)
      reader.fail(
        word.start,
        `unknown dataset field '${key}' in '${text}'; expected ${DATASET_FIELDS.map((f) => `dataset.${f}`).join(", ")}`,
      );
    return { field: { entity: "dataset", key: datasetKey }, type: "string", inAllowed: true, orderable: false, text };
  }
  if (key.length === 0) reader.fail(word.start, `the key in '${text}' is empty`);
  const operators = entity === "metric" ? undefined : vocabulary.keyedOperators;
  return {
    field: { entity, key },
    type: entity === "metric" ? "numeric" : "string",
    inAllowed: entity !== "metric" && operators === undefined,
    orderable: vocabulary.keyedOrderable,
    operators,
    text,
  };
}
