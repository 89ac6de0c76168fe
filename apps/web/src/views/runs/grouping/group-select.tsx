import type { GroupBy } from "./group-by";
import { formatGroupBy, parseGroupBy } from "./group-by";

/** The "Group by" choice: none, a param, a tag, or the datasets. */
export function GroupSelect({
  value,
  params,
  tags,
  onChange,
}: {
  value: GroupBy | undefined;
  params: readonly string[];
  tags: readonly string[];
  onChange: (next: GroupBy | undefined) => void;
}) {
  const current = value ? formatGroupBy(value) : "";
  // A grouping from the URL whose key is not (yet) among the known keys still shows as chosen.
  const known = new Set([...params.map((k) => `params.${k}`), ...tags.map((k) => `tags.${k}`), "dataset"]);
  return (
    <label>
      Group by{" "}
      <select value={current} onChange={(e) => onChange(parseGroupBy(e.target.value))}>
        <option value="">none</option>
        {current && !known.has(current) ? <option value={current}>{current}</option> : null}
        {params.length ? (
          <optgroup label="Params">
            {params.map((k) => (
              <option key={k} value={`params.${k}`}>
                params.{k}
              </option>
            ))}
          </optgroup>
        ) : null}
        {tags.length ? (
          <optgroup label="Tags">
            {tags.map((k) => (
              <option key={k} value={`tags.${k}`}>
                tags.{k}
              </option>
            ))}
          </optgroup>
        ) : null}
        <option value="dataset">dataset</option>
      </select>
    </label>
  );
}
