// `/logged-models/<model id>`: one logged model, with links to its experiment's list and its run,
// its metrics (latest, min, max, history), its tags and its artifacts.
import { api, namespace } from "../../api/client";
import { useAsync } from "../../api/use-async";
import { ErrorBox, Loading } from "../../components/error-box";
import { KeyValueTable } from "../../components/key-value-table";
import { MetricSummaryTable } from "../../components/metric-summary-table";
import { ExperimentRunsLink } from "../../components/entity-names";
import { Artifacts, loggedModelArtifacts } from "../run/artifacts";
import { LoggedModelDetails } from "./logged-model-details";
import { metricSummaries } from "./model-metrics";

export function LoggedModelPage({ modelId }: { modelId: string }) {
  const model = useAsync(() => api().getLoggedModel(modelId, true), [modelId]);
  if (model.error && !model.data) return <ErrorBox error={model.error} title="Could not load the logged model" />;
  if (!model.data) return <Loading what="logged model" />;
  const { info, data } = model.data;
  const ns = namespace();
  const tags = info.tags ?? [];
  const systemTags = tags.filter((t) => t.key.startsWith(`${ns}.`));
  const userTags = tags.filter((t) => !t.key.startsWith(`${ns}.`));
  const metrics = metricSummaries(data.metrics);
  return (
    <div>
      <p>
        <ExperimentRunsLink experimentId={info.experiment_id} path="/logged-models" what="Logged models" />
      </p>
      <LoggedModelDetails model={model.data} heading="h1" latestMetrics={false} />

      <section aria-label="Metrics">
        <h2>Metrics ({metrics.length})</h2>
        <MetricSummaryTable rows={metrics} label={`Metrics of ${info.name}`} />
      </section>

      <section aria-label="Tags">
        <h2>Tags ({userTags.length})</h2>
        {userTags.length ? (
          <KeyValueTable rows={userTags} label={`Tags of ${info.name}`} />
        ) : (
          <p className="muted">No tags.</p>
        )}
        {systemTags.length ? (
          <details>
            <summary>System tags ({systemTags.length})</summary>
            <KeyValueTable rows={systemTags} label={`System tags of ${info.name}`} />
          </details>
        ) : null}
      </section>

      <Artifacts source={loggedModelArtifacts(info.model_id)} />
    </div>
  );
}
