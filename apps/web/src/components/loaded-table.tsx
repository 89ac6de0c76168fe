import type { ReactNode } from "react";
import { Loading } from "./error-box";
import { type Heading, TableHead } from "./table-head";

/**
 * A table of the rows a request loads: "Loading …" until it answers (nothing when it failed: the
 * page's error box says why), `empty` when there are no rows, else the table in a box that scrolls
 * sideways on a narrow screen. `children` draws one row.
 */
export function LoadedTable<T>({
  rows,
  failed,
  what,
  headings,
  empty,
  children,
}: {
  rows: readonly T[] | undefined;
  failed: boolean;
  what: string;
  headings: readonly Heading[];
  empty?: ReactNode;
  children: (row: T) => ReactNode;
}) {
  if (rows === undefined) return failed ? null : <Loading what={what} />;
  if (rows.length === 0 && empty !== undefined) return empty;
  return (
    <div className="table-wrap">
      <table className="grid">
        <TableHead headings={headings} />
        <tbody>{rows.map(children)}</tbody>
      </table>
    </div>
  );
}
