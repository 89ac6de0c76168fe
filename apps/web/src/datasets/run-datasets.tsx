import { api } from "../api/client";
import { useAsync } from "../api/use-async";
import { ErrorBox } from "../components/error-box";
import { TableHead } from "../components/table-head";
import { quoteValue, runDatasets } from "./datasets";

/** The run page's "Datasets" section: each input's name, digest, context and source. */
export function RunDatasets({ runId, experimentId }: { runId: string; experimentId: string }) {
  const found = useAsync(
    () =>
      api()
        .searchRunsColumns([experimentId], {
          filter: `attributes.run_id = ${quoteValue(runId)}`,
          includeInputs: true,
          viewType: "ALL",
        })
        .first(),
    [runId, experimentId],
  );
  if (found.error) return <ErrorBox error={found.error} title="Datasets" />;
  const datasets = found.data ? runDatasets(found.data) : [];
  return (
    <section aria-label="Datasets">
      <h2>Datasets ({datasets.length})</h2>
      {datasets.length === 0 ? (
        <p className="muted">{found.data ? "No datasets logged." : "Loading…"}</p>
      ) : (
        <div className="table-scroll">
          <table className="grid">
            <TableHead headings={["Name", "Digest", "Context", "Source type", "Source"]} />
            <tbody>
              {datasets.map((d) => (
                <tr key={`${d.name}/${d.digest}/${d.context}`}>
                  <td>{d.name}</td>
                  <td className="num">{d.digest}</td>
                  <td>{d.context ? <span className="badge">{d.context}</span> : null}</td>
                  <td>{d.sourceType}</td>
                  <td className="pre">{d.source}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
