import { useState, useSyncExternalStore, type FormEvent } from "react";
import { isAuthRequired, onAuthChange, setToken } from "../api/client";

/** Asks for the server's bearer token once it has answered 401; kept for the browser session. */
export function TokenPrompt() {
  const required = useSyncExternalStore(onAuthChange, isAuthRequired);
  const [value, setValue] = useState("");
  if (!required) return null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (value.trim()) setToken(value.trim());
  };
  return (
    <div className="modal-backdrop">
      <form className="modal" role="dialog" aria-modal="true" aria-labelledby="token-title" onSubmit={submit}>
        <h2 id="token-title">This server needs a token</h2>
        <p>
          Enter the bearer token the server was started with (TRACKER_AUTH_TOKEN). It is kept for this browser session
          only.
        </p>
        <label>
          Token{" "}
          <input
            type="password"
            autoFocus
            value={value}
            onChange={(e) => setValue(e.target.value)}
            autoComplete="off"
          />
        </label>
        <button type="submit">Sign in</button>
      </form>
    </div>
  );
}
