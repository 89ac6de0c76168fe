import type { components as ComponentsA } from "@tracker/types/rev-a";
import type { components as ComponentsB } from "@tracker/types/rev-b";
import type { components as ComponentsC } from "@tracker/types/rev-c";
import type { components as ComponentsExt } from "@tracker/types/ext";

/** The generated schemas of each document (spec/*.yaml), for the shapes handlers answer with. */
export type SchemasA = ComponentsA["schemas"];
export type SchemasB = ComponentsB["schemas"];
export type SchemasC = ComponentsC["schemas"];
export type SchemasExt = ComponentsExt["schemas"];

/**
 * Schemas of the preview prefix, which serves B and A at once (design.md, "Server architecture"): a
 * value carries A's fields alongside B's, so it must be both A's and B's.
 */
export type PreviewSchemas = {
  [Name in keyof SchemasA & keyof SchemasB]: SchemasA[Name] & SchemasB[Name];
};
