import { useState } from "react";
import { Link, useLocation } from "wouter";
import { api } from "../../api/client";
import { attempt, useAsync } from "../../api/use-async";
import { ConfirmButton } from "../../components/confirm-button";
import { ErrorBox, Loading } from "../../components/error-box";
import { formatTime } from "../../components/format";
import { TagsEditor } from "../../components/tags-editor";
import { AliasBadges, AliasesEditor, versionHref } from "./aliases-editor";
import { DescriptionEditor } from "./description-editor";
import { TableHead } from "../../components/table-head";
import { RunLink } from "../../components/entity-names";
import { PermissionsPanel } from "../account/permissions-panel";

export function ModelPage({ name }: { name: string }) {
  const [, navigate] = useLocation();
  const model = useAsync(() => api().getRegisteredModel(name), [name]);
  const versions = useAsync(
    () =>
      api()
        .searchModelVersions({ filter: `name = '${name.replace(/'/g, "\\'")}'`, orderBy: ["version DESC"] })
        .toArray(10_000),
    [name],
  );
  const aliases = useAsync(() => api().listRegisteredModelAliases(name), [name]);
  const [error, setError] = useState<Error | undefined>();
  if (model.error && !model.data) return <ErrorBox error={model.error} title="Could not load the model" />;
  if (!model.data) return <Loading what="model" />;
  const m = model.data;
  return (
    <div>
      <p>
        <Link href="/models">← Registered models</Link>
      </p>
      <h1>Model {m.name}</h1>
      <p className="muted">
        Created {formatTime(m.creation_timestamp)} · updated {formatTime(m.last_updated_timestamp)}
      </p>
      <ErrorBox error={error} />
      <DescriptionEditor
        text={m.description ?? ""}
        onSave={(text) => api().updateRegisteredModel(name, text)}
        onSaved={model.reload}
      />
      <section aria-label="Versions">
        <h2>Versions</h2>
        <ErrorBox error={versions.error} title="Versions" />
        <div className="table-scroll">
          <table className="grid">
            <TableHead headings={["Version", "Stage", "Aliases", "Source run", "Created"]} />
            <tbody>
              {(versions.data ?? []).map((v) => (
                <tr key={v.version}>
                  <td>
                    <Link href={versionHref(name, v.version)}>Version {v.version}</Link>
                  </td>
                  <td>
                    <span className="badge">{v.current_stage}</span>
                  </td>
                  <td>
                    <AliasBadges aliases={aliases.data ?? []} version={v.version} />
                  </td>
                  <td>{v.run_id ? <RunLink runId={v.run_id} /> : "—"}</td>
                  <td>{formatTime(v.creation_timestamp)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <ErrorBox error={aliases.error} title="Aliases" />
      <AliasesEditor
        name={name}
        aliases={aliases.data ?? []}
        versions={(versions.data ?? []).map((v) => v.version)}
        onSet={(alias, version) => api().setRegisteredModelAlias(name, alias, version)}
        onDelete={(alias) => api().deleteRegisteredModelAlias(name, alias)}
        onChanged={() => {
          aliases.reload();
          model.reload();
        }}
      />
      <TagsEditor
        tags={m.tags ?? []}
        onSet={(k, v) => api().setRegisteredModelTag(name, k, v)}
        onDelete={(k) => api().deleteRegisteredModelTag(name, k)}
        onChanged={model.reload}
      />
      <PermissionsPanel resource={{ kind: "registered_model", name }} title="Who may use this model" />
      <h2>Danger zone</h2>
      <ConfirmButton
        question={`Delete model ${m.name} and all its versions?`}
        onConfirm={() =>
          void attempt(() => api().deleteRegisteredModel(name)).then((f) => (f ? setError(f) : navigate("/models")))
        }
      >
        Delete model
      </ConfirmButton>
    </div>
  );
}
