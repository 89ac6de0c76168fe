/**
 * A grid of text cells as a file holds them (a CSV, a model's input example): a heading row, then
 * rows; a row and a column are their positions in the file, which does not change while shown.
 */
export function CellTable({
  columns,
  rows,
  label,
}: {
  columns: readonly string[];
  rows: readonly (readonly string[])[];
  label?: string;
}) {
  return (
    <table className="grid" aria-label={label}>
      <thead>
        <tr>
          {columns.map((cell, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a column is its position
            <th key={i} scope="col">
              {cell}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row, r) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a row is its position in a file that does not change
          <tr key={r}>
            {row.map((cell, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a column is its position
              <td key={i}>{cell}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
