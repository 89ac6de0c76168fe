import type { Metric, Run } from "@tracker-ml/client";
import { useState } from "react";
import { Link } from "wouter";
import { api, namespace } from "../../api/client";
import { attempt, useAsync } from "../../api/use-async";
import { ErrorBox, Loading } from "../../components/error-box";
import { formatDuration, formatTime } from "../../components/format";
import { Markdown } from "../../components/markdown";
import { historyValues, MetricSummaryTable } from "../../components/metric-summary-table";
import { TagsEditor } from "../../components/tags-editor";
import { MetricCharts } from "../compare/metric-charts";
import { Artifacts, runArtifacts } from "./artifacts";
import { RegisterModel } from "./register-model";
import { RunLoggedModels } from "../logged-models/run-logged-models";
import { useLiveRefresh } from "../runs/use-live-refresh";
import { KeyValueTable } from "../../components/key-value-table";
import { ExperimentRunsLink, RunLink } from "../../components/entity-names";
import { RunDatasets } from "../../datasets/run-datasets";

/** Metric histories shown as sparklines: at most this many keys are fetched. */
const SPARKLINE_KEYS = 30;

export function RunPage({ runId }: { runId: string }) {
  const run = useAsync(() => api().getRun(runId), [runId]);
  const [paused, setPaused] = useState(false);
  useLiveRefresh(run.data?.info.status === "RUNNING", paused, async () => run.reload());
  if (run.error && !run.data) return <ErrorBox error={run.error} title="Could not load the run" />;
  if (!run.data) return <Loading what="run" />;
  return <RunView run={run.data} reload={run.reload} paused={paused} setPaused={setPaused} />;
}

function RunView({
  run,
  reload,
  paused,
  setPaused,
}: {
  run: Run;
  reload: () => void;
  paused: boolean;
  setPaused: (p: boolean) => void;
}) {
  const ns = namespace();
  const info = run.info;
  const id = info.run_id;
  const tags = run.data.tags;
  const tagValue = (key: string) => tags.find((t) => t.key === key)?.value;
  const note = tagValue(`${ns}.note.content`) ?? "";
  const parent = tagValue(`${ns}.parentRunId`);
  const [error, setError] = useState<Error | undefined>();
  const [editingName, setEditingName] = useState(false);
  const [name, setName] = useState(info.run_name ?? "");
  const [editingNote, setEditingNote] = useState(false);
  const [noteText, setNoteText] = useState(note);
  const act = async (action: () => Promise<unknown>) => {
    const failure = await attempt(action);
    setError(failure);
    reload();
    return failure;
  };
  const histories = useAsync(
    // Sampled by the server (each bucket's first, last, min and max), so min and max are exact.
    () =>
      Promise.all(
        run.data.metrics.slice(0, SPARKLINE_KEYS).map((m) =>
          api()
            .getMetricHistoryBulkInterval([id], m.key, { maxResults: 200 })
            .then((h) => [m.key, h] as const),
        ),
      ),
    [id, run.data.metrics.map((m) => `${m.key}:${m.step}:${m.timestamp}`).join()],
  );
  const history = new Map<string, Metric[]>(histories.data ?? []);
  const versions = useAsync(
    () =>
      api()
        .searchModelVersions({ filter: `run_id = '${id}'` })
        .toArray(100),
    [id],
  );
  const userTags = tags.filter((t) => !t.key.startsWith(`${ns}.`));
  const systemTags = tags.filter((t) => t.key.startsWith(`${ns}.`));
  return (
    <div>
      <p>
        <ExperimentRunsLink experimentId={info.experiment_id} />
      </p>
      {editingName ? (
        <form
          className="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            void act(() => api().updateRun(id, { runName: name.trim() })).then((f) => !f && setEditingName(false));
          }}
        >
          <input aria-label="Run name" value={name} onChange={(e) => setName(e.target.value)} autoFocus />
          <button type="submit">Save</button>
          <button type="button" onClick={() => setEditingName(false)}>
            Cancel
          </button>
        </form>
      ) : (
        <h1>
          {info.run_name || id}{" "}
          <button
            type="button"
            onClick={() => {
              setName(info.run_name ?? "");
              setEditingName(true);
            }}
            aria-label="Rename run"
          >
            Rename
          </button>
        </h1>
      )}
      <ErrorBox error={error} />
      <dl className="meta">
        <dt>Status</dt>
        <dd>
          <span className={`badge ${info.status}`}>{info.status}</span>
          {info.status === "RUNNING" ? (
            <label>
              {" "}
              <input type="checkbox" checked={!paused} onChange={(e) => setPaused(!e.target.checked)} /> live refresh
            </label>
          ) : null}
        </dd>
        <dt>Run ID</dt>
        <dd>{id}</dd>
        <dt>Started</dt>
        <dd>{formatTime(info.start_time)}</dd>
        <dt>Ended</dt>
        <dd>{formatTime(info.end_time)}</dd>
        <dt>Duration</dt>
        <dd>{formatDuration(info.start_time, info.end_time)}</dd>
        <dt>User</dt>
        <dd>{tagValue(`${ns}.user`) ?? info.user_id ?? ""}</dd>
        <dt>Source</dt>
        <dd>{tagValue(`${ns}.source.name`) ?? ""}</dd>
        <dt>Lifecycle</dt>
        <dd>
          {info.lifecycle_stage}{" "}
          {info.lifecycle_stage === "deleted" ? (
            <button type="button" onClick={() => void act(() => api().restoreRun(id))}>
              Restore
            </button>
          ) : (
            <button type="button" className="danger" onClick={() => void act(() => api().deleteRun(id))}>
              Delete run
            </button>
          )}
        </dd>
        {parent ? (
          <>
            <dt>Parent run</dt>
            <dd>
              <RunLink runId={parent} />
            </dd>
          </>
        ) : null}
      </dl>

      <section aria-label="Description">
        <h2>
          Description{" "}
          {!editingNote ? (
            <button
              type="button"
              onClick={() => {
                setNoteText(note);
                setEditingNote(true);
              }}
            >
              Edit description
            </button>
          ) : null}
        </h2>
        {editingNote ? (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              void act(() => api().setTag(id, `${ns}.note.content`, noteText)).then((f) => !f && setEditingNote(false));
            }}
          >
            <textarea
              aria-label="Description (Markdown)"
              rows={6}
              cols={80}
              value={noteText}
              onChange={(e) => setNoteText(e.target.value)}
            />
            <div className="inline-form">
              <button type="submit">Save description</button>
              <button type="button" onClick={() => setEditingNote(false)}>
                Cancel
              </button>
            </div>
          </form>
        ) : note ? (
          <Markdown text={note} />
        ) : (
          <p className="muted">No description.</p>
        )}
      </section>

      <RunDatasets runId={id} experimentId={info.experiment_id} />

      <section aria-label="Parameters">
        <h2>Parameters ({run.data.params.length})</h2>
        <table className="kv">
          <tbody>
            {run.data.params.map((p) => (
              <tr key={p.key}>
                <th scope="row">{p.key}</th>
                <td className="pre">{p.value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>

      <section aria-label="Metrics">
        <h2>Metrics ({run.data.metrics.length})</h2>
        <ErrorBox error={histories.error} title="Metric histories" />
        <MetricSummaryTable
          rows={run.data.metrics.map((m) => ({
            key: m.key,
            latest: m.value,
            step: m.step,
            history: historyValues(history.get(m.key) ?? []),
          }))}
        />
      </section>
      {run.data.metrics.length > 0 ? <MetricCharts runs={[run]} /> : null}

      <TagsEditor
        label="Tags"
        tags={userTags}
        onSet={(k, v) => api().setTag(id, k, v)}
        onDelete={(k) => api().deleteTag(id, k)}
        onChanged={reload}
      />
      {systemTags.length ? (
        <details>
          <summary>System tags ({systemTags.length})</summary>
          <KeyValueTable rows={systemTags} />
        </details>
      ) : null}

      <Artifacts source={runArtifacts(id)} />

      <RunLoggedModels experimentId={info.experiment_id} runId={id} />

      <section aria-label="Registered model versions">
        <h2>Model versions from this run</h2>
        <RegisterModel runId={id} artifactUri={info.artifact_uri ?? ""} />
        <ErrorBox error={versions.error} title="Model versions" />
        {versions.data && versions.data.length === 0 ? <p className="muted">None.</p> : null}
        <ul>
          {(versions.data ?? []).map((v) => (
            <li key={`${v.name}/${v.version}`}>
              <Link href={`/models/${encodeURIComponent(v.name)}/versions/${v.version}`}>
                {v.name} version {v.version}
              </Link>{" "}
              <span className="badge">{v.current_stage}</span>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
