import { useState } from "react";
import { attempt } from "../../api/use-async";
import { ErrorBox } from "../../components/error-box";
import { Markdown } from "../../components/markdown";

/** A Markdown description with an editor. */
export function DescriptionEditor({
  text,
  onSave,
  onSaved,
}: {
  text: string;
  onSave: (text: string) => Promise<unknown>;
  onSaved: () => void;
}) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(text);
  const [error, setError] = useState<Error | undefined>();
  return (
    <section aria-label="Description">
      <h2>
        Description{" "}
        {!editing ? (
          <button
            type="button"
            onClick={() => {
              setDraft(text);
              setEditing(true);
            }}
          >
            Edit description
          </button>
        ) : null}
      </h2>
      {editing ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void attempt(() => onSave(draft)).then((failure) => {
              setError(failure);
              if (!failure) {
                setEditing(false);
                onSaved();
              }
            });
          }}
        >
          <textarea
            aria-label="Description (Markdown)"
            rows={5}
            cols={80}
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
          />
          <div className="inline-form">
            <button type="submit">Save description</button>
            <button type="button" onClick={() => setEditing(false)}>
              Cancel
            </button>
          </div>
        </form>
      ) : text ? (
        <Markdown text={text} />
      ) : (
        <p className="muted">No description.</p>
      )}
      <ErrorBox error={error} />
    </section>
  );
}
