import { useState } from "react";
import { Link } from "wouter";
import { api } from "../../api/client";
import { useAsync } from "../../api/use-async";
import { CreateByName } from "../../components/create-by-name";
import { ErrorBox, Loading } from "../../components/error-box";
import { formatTime } from "../../components/format";
import { nameFilter } from "../../url/name-filter";
import { useSearchState } from "../../url/search-state";
import { TableHead } from "../../components/table-head";
import { markdownExcerpt } from "../../components/markdown";

export function ModelsPage() {
  const state = useSearchState();
  const query = state.get("q") ?? "";
  const models = useAsync(
    () =>
      api()
        .searchRegisteredModels({ filter: nameFilter(query) })
        .toArray(1000),
    [query],
  );
  const [error, setError] = useState<Error | undefined>();
  return (
    <div>
      <h1>Registered models</h1>
      <div className="toolbar">
        <label>
          Search by name{" "}
          <input type="search" value={query} onChange={(e) => state.set({ q: e.target.value }, { replace: true })} />
        </label>
        <CreateByName
          what="model"
          create={(name) => api().createRegisteredModel(name)}
          onResult={setError}
          onCreated={models.reload}
        />
      </div>
      <ErrorBox error={error} />
      <ErrorBox error={models.error} title="Could not load models" />
      {!models.data && !models.error ? <Loading what="models" /> : null}
      {models.data ? (
        <div className="table-scroll">
          <table className="grid">
            <TableHead headings={["Name", "Latest versions", "Last updated", "Description"]} />
            <tbody>
              {models.data.length === 0 ? (
                <tr>
                  <td colSpan={4} className="muted">
                    No registered models.
                  </td>
                </tr>
              ) : null}
              {models.data.map((model) => (
                <tr key={model.name}>
                  <td>
                    <Link href={`/models/${encodeURIComponent(model.name)}`}>{model.name}</Link>
                  </td>
                  <td>
                    {(model.latest_versions ?? []).map((v) => (
                      <span key={v.version} className="badge">
                        v{v.version} {v.current_stage}
                      </span>
                    ))}
                  </td>
                  <td>{formatTime(model.last_updated_timestamp)}</td>
                  <td className="excerpt" title={model.description ?? undefined}>
                    {model.description ? markdownExcerpt(model.description) : ""}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </div>
  );
}
