// A two-column table of keys and values (params, system tags), one row per key.

export function KeyValueTable({
  rows,
  caption,
  label,
}: {
  rows: ReadonlyArray<{ key: string; value?: string }>;
  caption?: string;
  label?: string;
}) {
  return (
    <table className="kv" aria-label={label}>
      {caption === undefined ? null : <caption>{caption}</caption>}
      <tbody>
        {rows.map((row) => (
          <tr key={row.key}>
            <th scope="row">{row.key}</th>
            <td className="pre">{row.value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
