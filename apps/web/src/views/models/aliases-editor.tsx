import { useState, type FormEvent, type ReactNode } from "react";
import { Link } from "wouter";
import { ErrorBox } from "../../components/error-box";
import { RunButton } from "../../components/run-button";
import { useAction } from "../../components/use-action";
import { TableHead } from "../../components/table-head";
import { TextInput } from "../../components/text-input";

/** An alias of a model and the number of the version it names. */
export interface AliasEntry {
  alias: string;
  version: string;
}

/** The page of one version of a model. */
export const versionHref = (name: string, version: string) =>
  `/models/${encodeURIComponent(name)}/versions/${encodeURIComponent(version)}`;

/**
 * A model's aliases (`champion` → version 3) with remove, and a form that points an alias at a version.
 * On the model page (`versions` given) it lists every alias with its version and offers a version picker;
 * on a version page (`version` given) it lists and sets that version's aliases only. Setting an alias that
 * names another version moves it, as the API does; the form says so before.
 */
export function AliasesEditor({
  name,
  aliases,
  version,
  versions = [],
  onSet,
  onDelete,
  onChanged,
}: {
  name: string;
  aliases: readonly AliasEntry[];
  /** The version page's version: only its aliases are shown and set. */
  version?: string;
  /** The model page's versions, newest first, for the version picker. */
  versions?: readonly string[];
  onSet: (alias: string, version: string) => Promise<void>;
  onDelete: (alias: string) => Promise<void>;
  onChanged: () => void;
}) {
  const [alias, setAlias] = useState("");
  const [picked, setPicked] = useState<string | undefined>();
  const { error, run } = useAction(onChanged);
  const target = version ?? picked ?? versions[0];
  const shown = version === undefined ? aliases : aliases.filter((a) => a.version === version);
  const moving = aliases.find((a) => a.alias === alias.trim() && a.version !== target);
  const add = async (event: FormEvent) => {
    event.preventDefault();
    if (target === undefined) return;
    if (!(await run(() => onSet(alias.trim(), target)))) setAlias("");
  };
  return (
    <section aria-label="Aliases">
      <h2>Aliases</h2>
      {shown.length === 0 ? (
        <p className="muted">
          {version === undefined ? "No aliases yet." : "No alias names this version."} An alias such as{" "}
          <code>champion</code> lets clients load <code>models:/{name}@champion</code>.
        </p>
      ) : (
        <table className="kv">
          <TableHead headings={["Alias", version === undefined && "Version", { hidden: "Actions" }]} />
          <tbody>
            {shown.map((a) => (
              <tr key={a.alias}>
                <td>
                  <span className="badge alias">@{a.alias}</span>
                </td>
                {version === undefined ? (
                  <td>
                    <Link href={versionHref(name, a.version)}>Version {a.version}</Link>
                  </td>
                ) : null}
                <td className="actions">
                  <RunButton label={`Remove alias ${a.alias}`} run={run} action={() => onDelete(a.alias)}>
                    Remove
                  </RunButton>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {target === undefined ? null : (
        <form className="inline-form" aria-label="Set alias" onSubmit={add}>
          <TextInput label="Alias" placeholder="alias, e.g. champion" value={alias} onValue={setAlias} required />
          {version === undefined ? (
            <label>
              names{" "}
              <select aria-label="Version" value={target} onChange={(e) => setPicked(e.target.value)}>
                {versions.map((v) => (
                  <option key={v} value={v}>
                    Version {v}
                  </option>
                ))}
              </select>
            </label>
          ) : null}
          <button type="submit">{version === undefined ? "Set alias" : "Add alias"}</button>
          {moving ? (
            <span className="muted" role="status">
              @{moving.alias} now names version {moving.version}: it will move.
            </span>
          ) : null}
        </form>
      )}
      <ErrorBox error={error} />
    </section>
  );
}

/** The aliases of one version as badges (the model page's versions table, the version page's summary). */
export function AliasBadges({
  aliases,
  version,
  empty = null,
}: {
  aliases: readonly AliasEntry[];
  version: string;
  /** What to show when no alias names the version. */
  empty?: ReactNode;
}) {
  const names = aliases.filter((a) => a.version === version).map((a) => a.alias);
  if (names.length === 0) return <>{empty}</>;
  return (
    <>
      {names.map((alias) => (
        <span key={alias} className="badge alias">
          @{alias}
        </span>
      ))}
    </>
  );
}
