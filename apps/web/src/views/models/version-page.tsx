import type { ModelVersionStage } from "@tracker-ml/client";
import { useState } from "react";
import { Link, useLocation } from "wouter";
import { api } from "../../api/client";
import { attempt, useAsync } from "../../api/use-async";
import { ConfirmButton } from "../../components/confirm-button";
import { ErrorBox, Loading } from "../../components/error-box";
import { formatTime } from "../../components/format";
import { TagsEditor } from "../../components/tags-editor";
import { loggedModelIdOf } from "../logged-models/model-metrics";
import { AliasBadges, AliasesEditor } from "./aliases-editor";
import { DescriptionEditor } from "./description-editor";
import { RunLink } from "../../components/entity-names";

const STAGES: ModelVersionStage[] = ["None", "Staging", "Production", "Archived"];

/** The stage a version usually moves to next: None → Staging → Production → Archived → None. */
export function nextStage(current: string | undefined): ModelVersionStage {
  const index = STAGES.findIndex((s) => s.toLowerCase() === (current ?? "").toLowerCase());
  return STAGES[(index + 1) % STAGES.length]!;
}

export function VersionPage({ name, version }: { name: string; version: string }) {
  const [, navigate] = useLocation();
  const mv = useAsync(() => api().getModelVersion(name, version), [name, version]);
  const aliases = useAsync(() => api().listRegisteredModelAliases(name), [name]);
  // Unset until the user picks: the stage after the version's current one.
  const [picked, setTarget] = useState<ModelVersionStage | undefined>();
  const [archiveExisting, setArchiveExisting] = useState(false);
  const [error, setError] = useState<Error | undefined>();
  if (mv.error && !mv.data) return <ErrorBox error={mv.error} title="Could not load the model version" />;
  if (!mv.data) return <Loading what="model version" />;
  const v = mv.data;
  const target = picked ?? nextStage(v.current_stage);
  const canArchive = target === "Staging" || target === "Production";
  const transition = async () => {
    const failure = await attempt(() =>
      api().transitionModelVersionStage(name, version, target, {
        archiveExistingVersions: canArchive && archiveExisting,
      }),
    );
    setError(failure);
    if (!failure) setTarget(undefined);
    mv.reload();
  };
  return (
    <div>
      <p>
        <Link href={`/models/${encodeURIComponent(name)}`}>← Model {name}</Link>
      </p>
      <h1>
        {name} version {v.version}
      </h1>
      <dl className="meta">
        <dt>Stage</dt>
        <dd>
          <span className="badge" data-testid="stage">
            {v.current_stage}
          </span>
        </dd>
        <dt>Aliases</dt>
        <dd data-testid="aliases">
          <AliasBadges aliases={aliases.data ?? []} version={v.version} empty="—" />
        </dd>
        <dt>Status</dt>
        <dd>{v.status}</dd>
        <dt>Source run</dt>
        <dd>{v.run_id ? <RunLink runId={v.run_id} /> : "—"}</dd>
        <dt>Source</dt>
        <dd className="pre">{v.source}</dd>
        {loggedModelIdOf(v.source) ? (
          <>
            <dt>Logged model</dt>
            <dd>
              <Link href={`/logged-models/${loggedModelIdOf(v.source)}`}>{loggedModelIdOf(v.source)}</Link>
            </dd>
          </>
        ) : null}
        <dt>Created</dt>
        <dd>{formatTime(v.creation_timestamp)}</dd>
        <dt>Updated</dt>
        <dd>{formatTime(v.last_updated_timestamp)}</dd>
      </dl>
      <section aria-label="Stage transition">
        <h2>Stage</h2>
        <div className="inline-form">
          <label>
            Move to{" "}
            <select value={target} onChange={(e) => setTarget(e.target.value as ModelVersionStage)}>
              {STAGES.map((s) => (
                <option key={s} disabled={s === v.current_stage}>
                  {s}
                </option>
              ))}
            </select>
          </label>
          <label>
            <input
              type="checkbox"
              disabled={!canArchive}
              checked={canArchive && archiveExisting}
              onChange={(e) => setArchiveExisting(e.target.checked)}
            />{" "}
            archive the versions now in {target}
          </label>
          <button type="button" className="primary" onClick={() => void transition()}>
            Transition
          </button>
        </div>
        <ErrorBox error={error} />
      </section>
      <ErrorBox error={aliases.error} title="Aliases" />
      <AliasesEditor
        name={name}
        aliases={aliases.data ?? []}
        version={v.version}
        onSet={(alias, version) => api().setRegisteredModelAlias(name, alias, version)}
        onDelete={(alias) => api().deleteRegisteredModelAlias(name, alias)}
        onChanged={aliases.reload}
      />
      <DescriptionEditor
        text={v.description ?? ""}
        onSave={(text) => api().updateModelVersion(name, version, text)}
        onSaved={mv.reload}
      />
      <TagsEditor
        tags={v.tags ?? []}
        onSet={(k, val) => api().setModelVersionTag(name, version, k, val)}
        onDelete={(k) => api().deleteModelVersionTag(name, version, k)}
        onChanged={mv.reload}
      />
      <p>
        Files:{" "}
        <a
          href={`/model-versions/get-artifact?name=${encodeURIComponent(name)}&version=${encodeURIComponent(version)}&path=MLmodel`}
        >
          MLmodel
        </a>
      </p>
      <h2>Danger zone</h2>
      <ConfirmButton
        question={`Delete version ${v.version} of ${name}?`}
        onConfirm={() =>
          void attempt(() => api().deleteModelVersion(name, version)).then((f) =>
            f ? setError(f) : navigate(`/models/${encodeURIComponent(name)}`),
          )
        }
      >
        Delete version
      </ConfirmButton>
    </div>
  );
}
