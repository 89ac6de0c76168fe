import { isTrackerError } from "@tracker-ml/client";

/** A failure shown in place, with the server's message and error code. */
export function ErrorBox({ error, title }: { error: Error | undefined; title?: string }) {
  if (!error) return null;
  const code = isTrackerError(error) ? error.errorCode : undefined;
  return (
    <div className="error" role="alert">
      {title ? <strong>{title}: </strong> : null}
      <span className="error-message">{error.message}</span>
      {code ? <span className="error-code"> ({code})</span> : null}
    </div>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p className="muted" role="status">
      Loading {what}…
    </p>
  );
}
