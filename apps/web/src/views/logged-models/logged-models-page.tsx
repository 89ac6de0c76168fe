// `/logged-models?e=<experiment ids>`: the experiments' logged models, the newest first.
import { Link } from "wouter";
import { api } from "../../api/client";
import { useAsync } from "../../api/use-async";
import { ErrorBox, Loading } from "../../components/error-box";
import { formatTime } from "../../components/format";
import { href, useSearchState } from "../../url/search-state";
import { LoggedModelStatus } from "./logged-model-details";
import { LIST_LIMIT } from "./search";

export function LoggedModelsPage() {
  const state = useSearchState();
  const experimentIds = state.list("e");
  const key = experimentIds.join(",");
  const experiments = useAsync(() => Promise.all(experimentIds.map((id) => api().getExperiment(id))), [key]);
  const found = useAsync(
    () => api().searchLoggedModels({ experiment_ids: experimentIds, max_results: LIST_LIMIT }),
    [key],
  );
  if (experimentIds.length === 0)
    return (
      <p>
        Choose an experiment first: <Link href="/experiments">experiments</Link>.
      </p>
    );
  const models = found.data?.models ?? [];
  return (
    <div>
      <p>
        <Link href={href("/runs", { e: experimentIds })}>← Runs</Link>
      </p>
      <h1>
        Logged models{" "}
        {experiments.data ? <span className="muted">in {experiments.data.map((e) => e.name).join(", ")}</span> : null}
      </h1>
      <ErrorBox error={experiments.error} title="Experiment" />
      <ErrorBox error={found.error} title="Logged models" />
      {!found.data && !found.error ? <Loading what="logged models" /> : null}
      {found.data && models.length === 0 ? <p className="muted">No logged models yet.</p> : null}
      {models.length > 0 ? (
        <table className="kv" aria-label="Logged models">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Status</th>
              <th scope="col">Source run</th>
              <th scope="col">Created</th>
              <th scope="col">Model ID</th>
            </tr>
          </thead>
          <tbody>
            {models.map(({ info }) => (
              <tr key={info.model_id}>
                <th scope="row">
                  <Link href={`/logged-models/${info.model_id}`}>{info.name}</Link>
                </th>
                <td>
                  <LoggedModelStatus status={info.status} />
                </td>
                <td>
                  {info.source_run_id ? <Link href={`/runs/${info.source_run_id}`}>{info.source_run_id}</Link> : "—"}
                </td>
                <td>{formatTime(info.creation_timestamp_ms)}</td>
                <td className="pre">{info.model_id}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {found.data?.next_page_token ? <p className="muted">Showing the newest {LIST_LIMIT}.</p> : null}
    </div>
  );
}
