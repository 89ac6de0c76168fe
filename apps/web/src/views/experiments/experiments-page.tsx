import type { Experiment } from "@tracker-ml/client";
import { useState } from "react";
import { Link, useLocation } from "wouter";
import { api } from "../../api/client";
import { attempt, useAsync } from "../../api/use-async";
import { useSessionUser } from "../../api/session";
import { ConfirmButton } from "../../components/confirm-button";
import { CreateByName } from "../../components/create-by-name";
import { ErrorBox, Loading } from "../../components/error-box";
import { formatTime } from "../../components/format";
import { TagsEditor } from "../../components/tags-editor";
import { ViewSelect, viewOf } from "../../components/view-select";
import { nameFilter } from "../../url/name-filter";
import { href, useSearchState } from "../../url/search-state";
import { TableHead } from "../../components/table-head";

export function ExperimentsPage() {
  const state = useSearchState();
  const [, navigate] = useLocation();
  const query = state.get("q") ?? "";
  const { view, viewType } = viewOf(state);
  const [selected, setSelected] = useState<string[]>([]);
  const [actionError, setActionError] = useState<Error | undefined>();
  const list = useAsync(
    () =>
      api()
        .searchExperiments({
          filter: nameFilter(query),
          viewType,
          orderBy: ["last_update_time DESC"],
          pageSize: 500,
        })
        .toArray(2000),
    [query, view],
  );
  const act = async (action: () => Promise<unknown>) => {
    const error = await attempt(action);
    setActionError(error);
    list.reload();
  };
  return (
    <div>
      <h1>Experiments</h1>
      <div className="toolbar">
        <label>
          Search by name{" "}
          <input
            type="search"
            value={query}
            onChange={(e) => state.set({ q: e.target.value }, { replace: true })}
            placeholder="name contains…"
          />
        </label>
        <ViewSelect state={state} />
        <button
          type="button"
          className="primary"
          disabled={selected.length === 0}
          onClick={() => navigate(href("/runs", { e: selected }))}
        >
          Runs of {selected.length || "selected"} experiment{selected.length === 1 ? "" : "s"}
        </button>
        <CreateByName
          what="experiment"
          create={(name) => api().createExperiment(name)}
          onResult={setActionError}
          onCreated={list.reload}
        />
      </div>
      <ErrorBox error={actionError} />
      <ErrorBox error={list.error} title="Could not load experiments" />
      {list.data === undefined && !list.error ? <Loading what="experiments" /> : null}
      {list.data ? (
        <table className="grid experiments-table">
          <TableHead
            headings={[{ hidden: "Select" }, "Name", "ID", "Created", "Last update", "State", { hidden: "Actions" }]}
          />
          <tbody>
            {list.data.length === 0 ? (
              <tr>
                <td colSpan={7} className="muted">
                  No experiments match.
                </td>
              </tr>
            ) : null}
            {list.data.map((experiment) => (
              <ExperimentRow
                key={experiment.experiment_id}
                experiment={experiment}
                selected={selected.includes(experiment.experiment_id)}
                onSelect={(on) =>
                  setSelected((s) =>
                    on ? [...s, experiment.experiment_id] : s.filter((id) => id !== experiment.experiment_id),
                  )
                }
                act={act}
                reload={list.reload}
              />
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}

function ExperimentRow({
  experiment,
  selected,
  onSelect,
  act,
  reload,
}: {
  experiment: Experiment;
  selected: boolean;
  onSelect: (on: boolean) => void;
  act: (action: () => Promise<unknown>) => Promise<void>;
  reload: () => void;
}) {
  const [renaming, setRenaming] = useState(false);
  const [newName, setNewName] = useState(experiment.name);
  const [showTags, setShowTags] = useState(false);
  const id = experiment.experiment_id;
  const deleted = experiment.lifecycle_stage === "deleted";
  const signedIn = useSessionUser() !== undefined;
  return (
    <>
      <tr>
        <td>
          <input
            type="checkbox"
            aria-label={`Select ${experiment.name}`}
            checked={selected}
            onChange={(e) => onSelect(e.target.checked)}
          />
        </td>
        <td>
          {renaming ? (
            <form
              className="inline-form"
              onSubmit={(e) => {
                e.preventDefault();
                void act(() => api().renameExperiment(id, newName.trim())).then(() => setRenaming(false));
              }}
            >
              <input
                aria-label="Experiment name"
                value={newName}
                onChange={(e) => setNewName(e.target.value)}
                autoFocus
              />
              <button type="submit">Save</button>
              <button type="button" onClick={() => setRenaming(false)}>
                Cancel
              </button>
            </form>
          ) : (
            <Link href={href("/runs", { e: [id] })}>{experiment.name}</Link>
          )}
        </td>
        <td>{id}</td>
        <td>{formatTime(experiment.creation_time)}</td>
        <td>{formatTime(experiment.last_update_time)}</td>
        <td>{experiment.lifecycle_stage}</td>
        <td className="actions">
          <button type="button" onClick={() => setShowTags((s) => !s)} aria-expanded={showTags}>
            Tags ({experiment.tags?.length ?? 0})
          </button>{" "}
          {signedIn ? (
            <Link href={`/experiments/${id}/access`} aria-label={`Sharing of ${experiment.name}`}>
              Sharing
            </Link>
          ) : null}{" "}
          {!deleted ? (
            <button type="button" onClick={() => setRenaming(true)} aria-label={`Rename ${experiment.name}`}>
              Rename
            </button>
          ) : null}{" "}
          {deleted ? (
            <button
              type="button"
              onClick={() => void act(() => api().restoreExperiment(id))}
              aria-label={`Restore ${experiment.name}`}
            >
              Restore
            </button>
          ) : id !== "0" ? (
            <ConfirmButton
              question={`Delete ${experiment.name}?`}
              onConfirm={() => void act(() => api().deleteExperiment(id))}
            >
              Delete
            </ConfirmButton>
          ) : null}
        </td>
      </tr>
      {showTags ? (
        <tr>
          <td colSpan={7}>
            <TagsEditor
              label={`Tags of ${experiment.name}`}
              tags={experiment.tags ?? []}
              onSet={(key, value) => api().setExperimentTag(id, key, value)}
              onChanged={reload}
            />
          </td>
        </tr>
      ) : null}
    </>
  );
}
