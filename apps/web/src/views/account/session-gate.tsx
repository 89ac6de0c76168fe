import { useEffect, useState, useSyncExternalStore, type ReactNode } from "react";
import { ErrorBox, Loading } from "../../components/error-box";
import { toError } from "../../api/use-async";
import { onSessionChange, sessionState, startSession, type SessionUser } from "../../api/session";
import { SignInPage } from "./sign-in-page";

/**
 * Shows the app once the server said whether users are on: to everyone when they are off, only
 * after sign-in when they are on (the sign-in page otherwise). `children` gets the signed-in user,
 * undefined when users are off.
 */
export function SessionGate({ children }: { children: (user: SessionUser | undefined) => ReactNode }) {
  const state = useSyncExternalStore(onSessionChange, sessionState);
  const [error, setError] = useState<Error | undefined>();
  useEffect(() => {
    startSession().catch((failure: unknown) => setError(toError(failure)));
  }, []);
  if (error) return <ErrorBox error={error} title="Could not reach the server" />;
  if (state.status === "loading") return <Loading what="session" />;
  if (state.status === "signed-out") return <SignInPage reason={state.reason} />;
  return <>{children(state.status === "signed-in" ? state.user : undefined)}</>;
}
