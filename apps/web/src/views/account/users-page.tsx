import { useState, type FormEvent } from "react";
import { expectData, expectOk } from "@tracker-ml/client/auth";
import { ConfirmButton } from "../../components/confirm-button";
import { ErrorBox } from "../../components/error-box";
import { useAction } from "../../components/use-action";
import { useAsync } from "../../api/use-async";
import { authApi, useSessionUser } from "../../api/session";
import "./account.css";
import { LoadedTable } from "../../components/loaded-table";

/** Admins: every user; create one, make or unmake admin, reset a password, delete. */
export function UsersPage() {
  const me = useSessionUser();
  const users = useAsync(() => expectData(authApi().GET("/api/2.0/tracker/users/list")).then((d) => d.users), []);
  const { error, run } = useAction(users.reload);
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [resetting, setResetting] = useState<string | undefined>();
  const [newPassword, setNewPassword] = useState("");
  const [notice, setNotice] = useState<string | undefined>();
  const create = async (event: FormEvent) => {
    event.preventDefault();
    const name = username.trim();
    const failure = await run(() =>
      expectData(authApi().POST("/api/2.0/tracker/users/create", { body: { username: name, password } })),
    );
    if (!failure) {
      setUsername("");
      setPassword("");
      setNotice(`User ${name} created.`);
    }
  };
  const reset = async (event: FormEvent, name: string) => {
    event.preventDefault();
    const failure = await run(() =>
      expectOk(
        authApi().PATCH("/api/2.0/tracker/users/update-password", { body: { username: name, password: newPassword } }),
      ),
    );
    if (!failure) {
      setResetting(undefined);
      setNewPassword("");
      setNotice(`Password of ${name} reset.`);
    }
  };
  return (
    <div className="account-page">
      <h1>Users</h1>
      <form className="inline-form" onSubmit={create} aria-label="Create a user">
        <label className="field">
          Username
          <input required autoComplete="off" value={username} onChange={(e) => setUsername(e.target.value)} />
        </label>
        <label className="field">
          Password (at least 12 characters)
          <input
            required
            type="password"
            autoComplete="new-password"
            minLength={12}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
        <button type="submit" className="primary">
          Create user
        </button>
      </form>
      {notice ? <p role="status">{notice}</p> : null}
      <ErrorBox error={error ?? users.error} />
      <LoadedTable
        rows={users.data}
        failed={Boolean(users.error)}
        what="users"
        headings={["Username", "Admin", { hidden: "Actions" }]}
      >
        {(u) => (
          <tr key={u.id}>
            <td>{u.username}</td>
            <td>
              <input
                type="checkbox"
                aria-label={`${u.username} is an admin`}
                checked={u.is_admin}
                disabled={u.username === me?.username}
                onChange={(e) =>
                  void run(() =>
                    expectOk(
                      authApi().PATCH("/api/2.0/tracker/users/update-admin", {
                        body: { username: u.username, is_admin: e.target.checked },
                      }),
                    ),
                  )
                }
              />
            </td>
            <td className="actions">
              {resetting === u.username ? (
                <form className="inline-form" onSubmit={(e) => void reset(e, u.username)}>
                  <input
                    type="password"
                    aria-label={`New password of ${u.username}`}
                    autoComplete="new-password"
                    required
                    minLength={12}
                    value={newPassword}
                    onChange={(e) => setNewPassword(e.target.value)}
                  />
                  <button type="submit">Set password</button>
                  <button type="button" onClick={() => setResetting(undefined)}>
                    Cancel
                  </button>
                </form>
              ) : (
                <button type="button" onClick={() => setResetting(u.username)}>
                  Reset password
                </button>
              )}{" "}
              {u.username === me?.username ? null : (
                <ConfirmButton
                  question={`Delete ${u.username}?`}
                  onConfirm={() =>
                    void run(() =>
                      expectOk(authApi().DELETE("/api/2.0/tracker/users/delete", { body: { username: u.username } })),
                    )
                  }
                >
                  Delete
                </ConfirmButton>
              )}
            </td>
          </tr>
        )}
      </LoadedTable>
    </div>
  );
}
