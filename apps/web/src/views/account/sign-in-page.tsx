import { useState, type FormEvent } from "react";
import { ErrorBox } from "../../components/error-box";
import { toError } from "../../api/use-async";
import { signIn } from "../../api/session";
import "./account.css";

/** The sign-in page of a server with users (`--auth users`), shown instead of the app until signed in. */
export function SignInPage({ reason }: { reason?: string }) {
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<Error | undefined>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await signIn(username.trim(), password);
    } catch (failure) {
      setError(toError(failure));
      setBusy(false);
    }
  };
  return (
    <main id="main" className="sign-in">
      <form onSubmit={submit} aria-labelledby="sign-in-title">
        <span className="brand">tracker</span>
        <h1 id="sign-in-title">Sign in</h1>
        {reason ? <p className="notice">{reason}</p> : null}
        <label className="field">
          Username
          <input
            name="username"
            autoComplete="username"
            required
            autoFocus
            value={username}
            onChange={(e) => setUsername(e.target.value)}
          />
        </label>
        <label className="field">
          Password
          <input
            name="password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
        <ErrorBox error={error} />
        <button type="submit" className="primary" disabled={busy}>
          {busy ? "Signing in…" : "Sign in"}
        </button>
      </form>
    </main>
  );
}
