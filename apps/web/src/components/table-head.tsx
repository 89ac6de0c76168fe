/** A column heading: shown text, `{ hidden }` for one that only screen readers announce, or false for a column not shown. */
export type Heading = string | { hidden: string } | false;

/** A table's `<thead>`: one `<th scope="col">` per heading, in order. Headings are distinct within a table. */
export function TableHead({ headings }: { headings: readonly Heading[] }) {
  return (
    <thead>
      <tr>
        {headings.map((heading) =>
          heading === false ? null : typeof heading === "string" ? (
            <th key={heading} scope="col">
              {heading}
            </th>
          ) : (
            <th key={heading.hidden} scope="col">
              <span className="sr-only">{heading.hidden}</span>
            </th>
          ),
        )}
      </tr>
    </thead>
  );
}
