import { invalidParameter } from "../errors.js";

/**
 * order_by of the searches whose items name plain columns (registered-models/search,
 * model-versions/search). The searches whose items name fields of the filter grammar (runs,
 * experiments: `metrics.<key> DESC`) parse them with the filter parser (filter-parser.ts,
 * parseRunOrderBy, parseExperimentOrderBy); both kinds end up as a list of sort columns for
 * keyset paging (keyset.ts).
 */

/** One sort key of a column search: a column and a direction. */
export interface SortKey<Column extends string> {
  column: Column;
  ascending: boolean;
}

/**
 * Parses the order_by items of a column search: each is `<column>` optionally followed by `ASC`
 * or `DESC` (case-insensitive, ASC by default). Blank items are ignored. An unknown column, another
 * word after the column, or a column named twice is INVALID_PARAMETER_VALUE.
 */
export function parseOrderBy<Column extends string>(
  items: readonly string[],
  columns: readonly Column[],
  aliases: Readonly<Record<string, Column>> = {},
): SortKey<Column>[] {
  const keys: SortKey<Column>[] = [];
  for (const item of items) {
    const words = item.split(/\s+/).filter((w) => w !== "");
    if (words.length === 0) continue;
    const bad = (problem: string): never => {
      throw invalidParameter(`Invalid order_by clause '${item}': ${problem}`);
    };
    if (words.length > 2) bad("expected '<column>' or '<column> ASC|DESC'");
    const named = words[0].toLowerCase();
    const column = columns.find((c) => c === named) ?? aliases[named];
    if (!column) return bad(`unknown column '${words[0]}'; the columns are ${columns.join(", ")}`);
    let ascending = true;
    if (words.length === 2) {
      const direction = words[1].toUpperCase();
      if (direction !== "ASC" && direction !== "DESC")
        bad(`expected ASC or DESC after '${words[0]}', not '${words[1]}'`);
      ascending = direction === "ASC";
    }
    if (keys.some((k) => k.column === column)) bad(`the column '${column}' is named more than once`);
    keys.push({ column, ascending });
  }
  return keys;
}

/** The user's keys followed by the tie-breaks whose column the user did not name. */
export function withTieBreaks<Column extends string>(
  keys: SortKey<Column>[],
  tieBreaks: readonly SortKey<Column>[],
): SortKey<Column>[] {
  return [...keys, ...tieBreaks.filter((t) => !keys.some((k) => k.column === t.column))];
}

/** A stable text form of an order, so that a page token can only continue the order it came from. */
export const orderSignature = (keys: readonly SortKey<string>[]) =>
  keys.map((k) => `${k.column}${k.ascending ? "+" : "-"}`).join(",");
