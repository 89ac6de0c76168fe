import { useState, type FormEvent } from "react";
import { expectData, expectOk, type components } from "@tracker-ml/client/auth";
import { isTrackerError } from "@tracker-ml/client";
import { ConfirmButton } from "../../components/confirm-button";
import { ErrorBox } from "../../components/error-box";
import { useAction } from "../../components/use-action";
import { useAsync } from "../../api/use-async";
import { authApi, useSessionUser } from "../../api/session";
import "./account.css";
import { LoadedTable } from "../../components/loaded-table";

type PermissionName = components["schemas"]["PermissionName"];
const PERMISSIONS: readonly PermissionName[] = ["READ", "EDIT", "MANAGE", "NO_PERMISSIONS"];

/** An experiment (by id) or a registered model (by name): the two kinds of resource with permissions. */
export type Resource = { kind: "experiment"; id: string } | { kind: "registered_model"; name: string };

interface GrantApi {
  list(key: string): Promise<Array<{ username: string; permission: PermissionName }>>;
  create(key: string, username: string, permission: PermissionName): Promise<void>;
  update(key: string, username: string, permission: PermissionName): Promise<void>;
  remove(key: string, username: string): Promise<void>;
}

/** MLflow's permission API (and tracker's lists) for each kind of resource. */
const GRANTS: Record<Resource["kind"], GrantApi> = {
  experiment: {
    list: async (id) =>
      (
        await expectData(
          authApi().GET("/api/2.0/tracker/experiments/permissions/list", { params: { query: { experiment_id: id } } }),
        )
      ).permissions,
    create: (id, username, permission) =>
      expectOk(
        authApi().POST("/api/2.0/tracker/experiments/permissions/create", {
          body: { experiment_id: id, username, permission },
        }),
      ),
    update: (id, username, permission) =>
      expectOk(
        authApi().PATCH("/api/2.0/tracker/experiments/permissions/update", {
          body: { experiment_id: id, username, permission },
        }),
      ),
    remove: (id, username) =>
      expectOk(
        authApi().DELETE("/api/2.0/tracker/experiments/permissions/delete", { body: { experiment_id: id, username } }),
      ),
  },
  registered_model: {
    list: async (name) =>
      (
        await expectData(
          authApi().GET("/api/2.0/tracker/registered-models/permissions/list", { params: { query: { name } } }),
        )
      ).permissions,
    create: (name, username, permission) =>
      expectOk(
        authApi().POST("/api/2.0/tracker/registered-models/permissions/create", {
          body: { name, username, permission },
        }),
      ),
    update: (name, username, permission) =>
      expectOk(
        authApi().PATCH("/api/2.0/tracker/registered-models/permissions/update", {
          body: { name, username, permission },
        }),
      ),
    remove: (name, username) =>
      expectOk(authApi().DELETE("/api/2.0/tracker/registered-models/permissions/delete", { body: { name, username } })),
  },
};

/**
 * Who may do what on an experiment or a registered model, for users with MANAGE on it (and admins):
 * list, grant, change, revoke. Shows nothing when users are off or the user may not manage it.
 */
export function PermissionsPanel({ resource, title }: { resource: Resource; title: string }) {
  const user = useSessionUser();
  const resourceKey = resource.kind === "experiment" ? resource.id : resource.name;
  const api = GRANTS[resource.kind];
  const grants = useAsync(
    () => (user ? api.list(resourceKey) : Promise.resolve(undefined)),
    [user?.id, resource.kind, resourceKey],
  );
  const { error, run } = useAction(grants.reload);
  const [username, setUsername] = useState("");
  const [permission, setPermission] = useState<PermissionName>("READ");
  if (!user) return null;
  if (isTrackerError(grants.error, "PERMISSION_DENIED")) return null;
  const grant = async (event: FormEvent) => {
    event.preventDefault();
    const failure = await run(() => api.create(resourceKey, username.trim(), permission));
    if (!failure) setUsername("");
  };
  return (
    <section className="permissions-panel" aria-labelledby="permissions-title">
      <h2 id="permissions-title">{title}</h2>
      <p className="notice">
        Users without a permission here get the server's default. MANAGE lets a user delete this and change who may use
        it.
      </p>
      <ErrorBox error={error ?? grants.error} />
      <LoadedTable
        rows={grants.data}
        failed={Boolean(grants.error)}
        what="permissions"
        headings={["User", "Permission", { hidden: "Actions" }]}
      >
        {(g) => (
          <tr key={g.username}>
            <td>{g.username}</td>
            <td>
              <PermissionSelect
                label={`Permission of ${g.username}`}
                value={g.permission}
                onChange={(next) => void run(() => api.update(resourceKey, g.username, next))}
              />
            </td>
            <td className="actions">
              <ConfirmButton
                question={`Revoke ${g.username}'s permission?`}
                onConfirm={() => void run(() => api.remove(resourceKey, g.username))}
              >
                Revoke
              </ConfirmButton>
            </td>
          </tr>
        )}
      </LoadedTable>
      <form className="inline-form" onSubmit={grant} aria-label="Grant a permission">
        <label className="field">
          Username
          <input required value={username} onChange={(e) => setUsername(e.target.value)} />
        </label>
        {/* biome-ignore lint/a11y/noLabelWithoutControl: PermissionSelect renders the <select> this label wraps */}
        <label className="field">
          Permission
          <PermissionSelect value={permission} onChange={setPermission} />
        </label>
        <button type="submit" className="primary">
          Grant
        </button>
      </form>
    </section>
  );
}

/** A choice of one of the permissions; `label` names it for screen readers when no `<label>` wraps it. */
function PermissionSelect({
  value,
  onChange,
  label,
}: {
  value: PermissionName;
  onChange: (next: PermissionName) => void;
  label?: string;
}) {
  return (
    <select aria-label={label} value={value} onChange={(e) => onChange(e.target.value as PermissionName)}>
      {PERMISSIONS.map((p) => (
        <option key={p} value={p}>
          {p}
        </option>
      ))}
    </select>
  );
}
