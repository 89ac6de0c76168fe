import { invalidParameter } from "../errors.js";
import { checkKey, checkValue, LIMITS } from "../limits.js";
import type { KeyValue } from "../model.js";

/** Input checks of the registry (spec part 8 and design.md), all INVALID_PARAMETER_VALUE. */

export const REGISTRY_LIMITS = {
  /** Registered model names: 1 to 500 characters (as experiment names). */
  modelNameChars: 500,
  /** Tag keys: at most 250 characters and 250 bytes (part 8: delete-tag keys at most 250 bytes). */
  tagKeyChars: LIMITS.keyChars,
  tagKeyBytes: 250,
  tagValueBytes: LIMITS.tagValueBytes,
} as const;

/** A string stored or looked up in the database: PostgreSQL text cannot hold NUL characters. */
export function checkText(field: string, value: string): void {
  if (value.includes("\u0000")) throw invalidParameter(`'${field}' contains a NUL character`);
}

/** The name of a new (or renamed) registered model. */
export function checkModelName(name: string, field = "name"): void {
  if (name.length === 0) throw invalidParameter(`Registered model name ('${field}') must be a non-empty string`);
  if (name.length > REGISTRY_LIMITS.modelNameChars) {
    throw invalidParameter(
      `Registered model name ('${field}') is longer than ${REGISTRY_LIMITS.modelNameChars} characters`,
    );
  }
  checkText(field, name);
}

export function checkTagKey(kind: string, key: string): void {
  checkKey(kind, key, { maxChars: REGISTRY_LIMITS.tagKeyChars, maxBytes: REGISTRY_LIMITS.tagKeyBytes });
}

export function checkTag(kind: string, tag: KeyValue): void {
  checkTagKey(kind, tag.key);
  checkValue("value", tag.value, { maxBytes: REGISTRY_LIMITS.tagValueBytes });
}

/** Checks tags given at creation; when a key repeats, the last value wins. */
export function checkedTags(kind: string, tags: readonly KeyValue[]): KeyValue[] {
  for (const tag of tags) checkTag(kind, tag);
  return [...new Map(tags.map((t) => [t.key, t])).values()];
}
