import { useState, type FormEvent } from "react";
import { ErrorBox } from "./error-box";
import { RunButton } from "./run-button";
import { useAction } from "./use-action";
import { TableHead } from "./table-head";
import { TextInput } from "./text-input";

export interface Tag {
  key: string;
  value: string;
}

/** A table of tags with add, edit and delete; `hidden` filters out system tags shown elsewhere. */
export function TagsEditor({
  tags,
  onSet,
  onDelete,
  onChanged,
  label = "Tags",
}: {
  tags: readonly Tag[];
  onSet: (key: string, value: string) => Promise<void>;
  /** Absent when the API cannot delete these tags. */
  onDelete?: (key: string) => Promise<void>;
  onChanged: () => void;
  label?: string;
}) {
  const [key, setKey] = useState("");
  const [value, setValue] = useState("");
  const [editing, setEditing] = useState<string | undefined>();
  const [editValue, setEditValue] = useState("");
  const { error, run } = useAction(onChanged);
  const add = async (event: FormEvent) => {
    event.preventDefault();
    if (!(await run(() => onSet(key, value)))) {
      setKey("");
      setValue("");
    }
  };
  return (
    <section aria-label={label}>
      <h3>{label}</h3>
      <table className="kv">
        <TableHead headings={["Key", "Value", { hidden: "Actions" }]} />
        <tbody>
          {tags.map((tag) => (
            <tr key={tag.key}>
              <td>{tag.key}</td>
              <td>
                {editing === tag.key ? (
                  <TextInput label={`Value of ${tag.key}`} value={editValue} onValue={setEditValue} />
                ) : (
                  <span className="pre">{tag.value}</span>
                )}
              </td>
              <td className="actions">
                {editing === tag.key ? (
                  <>
                    <button
                      type="button"
                      onClick={() => void run(() => onSet(tag.key, editValue)).then((f) => !f && setEditing(undefined))}
                    >
                      Save
                    </button>
                    <button type="button" onClick={() => setEditing(undefined)}>
                      Cancel
                    </button>
                  </>
                ) : (
                  <>
                    <button
                      type="button"
                      aria-label={`Edit tag ${tag.key}`}
                      onClick={() => {
                        setEditing(tag.key);
                        setEditValue(tag.value);
                      }}
                    >
                      Edit
                    </button>
                    {onDelete ? (
                      <RunButton label={`Delete tag ${tag.key}`} run={run} action={() => onDelete(tag.key)}>
                        Delete
                      </RunButton>
                    ) : null}
                  </>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <form className="inline-form" onSubmit={add}>
        <TextInput label="New tag key" placeholder="key" value={key} onValue={setKey} required />
        <TextInput label="New tag value" placeholder="value" value={value} onValue={setValue} />
        <button type="submit">Add tag</button>
      </form>
      <ErrorBox error={error} />
    </section>
  );
}
