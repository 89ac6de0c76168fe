import { useState } from "react";
import { attempt } from "../../api/use-async";
import { ErrorBox } from "../../components/error-box";
import { type CsvColumn, csvFileName, fetchAllRuns, runsToCsv, saveFile } from "./csv-export";
import type { RunQuery } from "./use-run-pages";

/** "Download CSV": all runs matching the table's filter and order, with its columns. */
export function DownloadCsv({
  query,
  columns,
  experimentNames,
}: {
  query: RunQuery;
  columns: readonly CsvColumn[];
  experimentNames: readonly string[];
}) {
  const [count, setCount] = useState<number | undefined>();
  const [error, setError] = useState<Error | undefined>();
  const download = async () => {
    setCount(0);
    const failure = await attempt(async () => {
      const runs = await fetchAllRuns(query, setCount);
      saveFile(await runsToCsv(runs, columns), csvFileName(experimentNames));
    });
    setError(failure);
    setCount(undefined);
  };
  return (
    <>
      <button
        type="button"
        disabled={count !== undefined || query.experimentIds.length === 0}
        onClick={() => void download()}
        title="All runs matching the filter, in this order, with these columns"
      >
        {count === undefined ? "Download CSV" : `Downloading… ${count} runs`}
      </button>
      <ErrorBox error={error} title="CSV download" />
    </>
  );
}
