import { api } from "../api/client";
import { useAsync } from "../api/use-async";
import { datasetLabel, type DatasetChoice, decodeDatasetChoice, encodeDatasetChoice } from "./datasets";

/** The experiments' datasets as a filter menu ("All datasets" or one name + digest + context). */
export function DatasetMenu({
  experimentIds,
  value,
  onChange,
}: {
  experimentIds: readonly string[];
  /** The chosen dataset as kept in the URL. */
  value: string | undefined;
  onChange: (next: DatasetChoice | undefined) => void;
}) {
  // The server takes 1 to 20 experiments; beyond that, no menu.
  const usable = experimentIds.length > 0 && experimentIds.length <= 20;
  const summaries = useAsync(
    () => (usable ? api().searchDatasets(experimentIds) : Promise.resolve([])),
    [experimentIds.join(",")],
  );
  const options = new Map<string, DatasetChoice>();
  for (const s of summaries.data ?? []) {
    const choice = s.context
      ? { name: s.name, digest: s.digest, context: s.context }
      : { name: s.name, digest: s.digest };
    options.set(encodeDatasetChoice(choice), choice);
  }
  const chosen = decodeDatasetChoice(value);
  // A chosen dataset stays listed (and selected) while the summaries load or if it is gone.
  if (chosen && value && !options.has(value)) options.set(value, chosen);
  if (options.size === 0) return null;
  return (
    <select
      aria-label="Dataset"
      className="dataset-menu"
      value={value && options.has(value) ? value : ""}
      onChange={(e) => onChange(e.target.value ? options.get(e.target.value) : undefined)}
    >
      <option value="">All datasets</option>
      {[...options].map(([key, d]) => (
        <option key={key} value={key}>
          {datasetLabel(d)}
        </option>
      ))}
    </select>
  );
}
