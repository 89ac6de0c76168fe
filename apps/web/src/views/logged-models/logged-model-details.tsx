// One logged model: what it is, its params and the latest value of each metric. Shown on the run
// page (the models a run produced) and on the model's own page.
import type { LoggedModel } from "@tracker-ml/client";
import { Link } from "wouter";
import { formatTime, formatValue } from "../../components/format";
import { KeyValueTable } from "../../components/key-value-table";
import { RunLink } from "../../components/entity-names";
import { latestMetrics, statusLabel } from "./model-metrics";

export function LoggedModelStatus({ status }: { status: string }) {
  const label = statusLabel(status);
  return <span className={`badge ${label === "FAILED" || label === "UPLOAD_FAILED" ? "FAILED" : ""}`}>{label}</span>;
}

/** `latestMetrics={false}` leaves the metrics to the caller (the model's own page shows more of them). */
export function LoggedModelDetails({
  model,
  heading,
  latestMetrics: showLatest = true,
}: {
  model: LoggedModel;
  heading: "h1" | "h2" | "h3";
  latestMetrics?: boolean;
}) {
  const { info, data } = model;
  const Heading = heading;
  const metrics = latestMetrics(data.metrics);
  const params = data.params ?? [];
  return (
    <section aria-label={`Logged model ${info.name}`} className="logged-model">
      <Heading>
        <Link href={`/logged-models/${info.model_id}`}>{info.name}</Link> <LoggedModelStatus status={info.status} />
      </Heading>
      <dl className="meta">
        <dt>Model ID</dt>
        <dd>{info.model_id}</dd>
        {info.model_type ? (
          <>
            <dt>Type</dt>
            <dd>{info.model_type}</dd>
          </>
        ) : null}
        {info.source_run_id ? (
          <>
            <dt>Source run</dt>
            <dd>
              <RunLink runId={info.source_run_id} />
            </dd>
          </>
        ) : null}
        <dt>Created</dt>
        <dd>{formatTime(info.creation_timestamp_ms)}</dd>
        <dt>Artifacts</dt>
        <dd className="pre">{info.artifact_uri}</dd>
      </dl>
      <KeyValueTable rows={params} caption={`Parameters (${params.length})`} label={`Parameters of ${info.name}`} />
      {showLatest ? (
        <table className="kv" aria-label={`Metrics of ${info.name}`}>
          <caption>Metrics ({metrics.length})</caption>
          <tbody>
            {metrics.map((m) => (
              <tr key={m.key}>
                <th scope="row">{m.key}</th>
                <td className="num">{typeof m.value === "number" ? formatValue(m.value) : m.value}</td>
                <td className="muted">step {m.step}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
