import { useState, type FormEvent } from "react";
import { expectData, expectOk } from "@tracker-ml/client/auth";
import { ConfirmButton } from "../../components/confirm-button";
import { ErrorBox } from "../../components/error-box";
import { DateTime } from "../../components/date-time";
import { useAction } from "../../components/use-action";
import { useAsync } from "../../api/use-async";
import { authApi, useSessionUser } from "../../api/session";
import "./account.css";
import { LoadedTable } from "../../components/loaded-table";

const DAY_MS = 24 * 3600 * 1000;

/** One's own account: personal access tokens (create: shown once; list; revoke) and the password. */
export function AccountPage() {
  const user = useSessionUser();
  if (!user) return null;
  return (
    <div className="account-page">
      <h1>Your account: {user.username}</h1>
      <TokensSection />
      <PasswordSection username={user.username} />
    </div>
  );
}

function TokensSection() {
  const tokens = useAsync(
    () => expectData(authApi().GET("/api/2.0/tracker/access-tokens/list")).then((d) => d.access_tokens),
    [],
  );
  const { error, run } = useAction(tokens.reload);
  const [name, setName] = useState("");
  const [days, setDays] = useState("90");
  const [created, setCreated] = useState<{ name: string; token: string } | undefined>();
  const create = async (event: FormEvent) => {
    event.preventDefault();
    const expiry = Number(days) > 0 ? Date.now() + Number(days) * DAY_MS : undefined;
    await run(async () => {
      const made = await expectData(
        authApi().POST("/api/2.0/tracker/access-tokens/create", {
          body: { name: name.trim(), ...(expiry ? { expires_at: expiry } : {}) },
        }),
      );
      setCreated({ name: made.access_token.name, token: made.token });
      setName("");
    });
  };
  const active = (t: { revoked_at?: number; expires_at?: number }) =>
    t.revoked_at === undefined && (t.expires_at === undefined || t.expires_at > Date.now());
  return (
    <section aria-labelledby="tokens-title">
      <h2 id="tokens-title">Personal access tokens</h2>
      <p className="notice">
        A token acts as you with <code>Authorization: Bearer …</code>, e.g. <code>MLFLOW_TRACKING_TOKEN</code> for
        MLflow's clients.
      </p>
      <form className="inline-form" onSubmit={create} aria-label="Create a token">
        <label className="field">
          Name
          <input required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <label className="field">
          Expires
          <select value={days} onChange={(e) => setDays(e.target.value)}>
            <option value="7">in 7 days</option>
            <option value="30">in 30 days</option>
            <option value="90">in 90 days</option>
            <option value="365">in a year</option>
            <option value="0">never</option>
          </select>
        </label>
        <button type="submit" className="primary">
          Create token
        </button>
      </form>
      {created ? (
        <div className="secret" role="status">
          <strong>Token “{created.name}” created. Copy it now: it is not shown again.</strong>
          <code data-testid="new-token">{created.token}</code>
          <span>
            <button type="button" onClick={() => void navigator.clipboard?.writeText(created.token)}>
              Copy
            </button>{" "}
            <button type="button" onClick={() => setCreated(undefined)}>
              Done
            </button>
          </span>
        </div>
      ) : null}
      <ErrorBox error={error ?? tokens.error} />
      <LoadedTable
        rows={tokens.data}
        failed={Boolean(tokens.error)}
        what="tokens"
        headings={["Name", "Created", "Expires", "Last used", "State", { hidden: "Actions" }]}
        empty={<p className="muted">No tokens yet.</p>}
      >
        {(t) => (
          <tr key={t.id}>
            <td>{t.name}</td>
            <td>
              <DateTime ms={t.created_at} />
            </td>
            <td>{t.expires_at === undefined ? "never" : <DateTime ms={t.expires_at} />}</td>
            <td>{t.last_used_at === undefined ? "never" : <DateTime ms={t.last_used_at} />}</td>
            <td>{t.revoked_at !== undefined ? "revoked" : active(t) ? "active" : "expired"}</td>
            <td className="actions">
              {t.revoked_at === undefined ? (
                <ConfirmButton
                  question={`Revoke “${t.name}”?`}
                  onConfirm={() =>
                    void run(() =>
                      expectOk(authApi().POST("/api/2.0/tracker/access-tokens/revoke", { body: { id: t.id } })),
                    )
                  }
                >
                  Revoke
                </ConfirmButton>
              ) : null}
            </td>
          </tr>
        )}
      </LoadedTable>
    </section>
  );
}

function PasswordSection({ username }: { username: string }) {
  const [password, setPassword] = useState("");
  const [again, setAgain] = useState("");
  const [done, setDone] = useState(false);
  const { error, run } = useAction(() => setDone(true));
  const mismatch = again !== "" && password !== again;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (mismatch) return;
    setDone(false);
    const failure = await run(() =>
      expectOk(authApi().PATCH("/api/2.0/tracker/users/update-password", { body: { username, password } })),
    );
    if (!failure) {
      setPassword("");
      setAgain("");
    }
  };
  return (
    <section aria-labelledby="password-title">
      <h2 id="password-title">Password</h2>
      <form className="stack" onSubmit={submit} aria-label="Change password">
        <label className="field">
          New password (at least 12 characters)
          <input
            type="password"
            autoComplete="new-password"
            required
            minLength={12}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
        <label className="field">
          New password again
          <input
            type="password"
            autoComplete="new-password"
            required
            value={again}
            onChange={(e) => setAgain(e.target.value)}
            aria-invalid={mismatch}
          />
        </label>
        {mismatch ? <p role="alert">The two passwords differ.</p> : null}
        <ErrorBox error={error} />
        {done ? <p role="status">Password changed. You were signed out everywhere else.</p> : null}
        <span>
          <button type="submit" className="primary" disabled={mismatch}>
            Change password
          </button>
        </span>
      </form>
    </section>
  );
}
