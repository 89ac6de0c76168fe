import { useState, type ReactNode } from "react";

/** A button that asks "Really?" inline before doing something destructive. */
export function ConfirmButton({
  onConfirm,
  children,
  question,
}: {
  onConfirm: () => void;
  children: ReactNode;
  question: string;
}) {
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <button type="button" className="danger" onClick={() => setAsking(true)}>
        {children}
      </button>
    );
  }
  return (
    <span className="confirm" role="group" aria-label="Confirm">
      <span>{question}</span>{" "}
      <button
        type="button"
        className="danger"
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        Yes, {typeof children === "string" ? children.toLowerCase() : "confirm"}
      </button>{" "}
      <button type="button" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}
