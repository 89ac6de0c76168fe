import { useState, type FormEvent } from "react";
import { attempt } from "../api/use-async";

/**
 * The toolbar form that creates a thing by name (`what`: "experiment", "model"). The name is trimmed;
 * `onResult` gets the error (undefined on success) after each try; after a success the field is cleared
 * and `onCreated` called.
 */
export function CreateByName({
  what,
  create,
  onResult,
  onCreated,
}: {
  what: string;
  create: (name: string) => Promise<unknown>;
  onResult: (error: Error | undefined) => void;
  onCreated: () => void;
}) {
  const [name, setName] = useState("");
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const failure = await attempt(() => create(name.trim()));
    onResult(failure);
    if (!failure) {
      setName("");
      onCreated();
    }
  };
  return (
    <form className="inline-form" onSubmit={submit}>
      <input
        aria-label={`New ${what} name`}
        placeholder={`new ${what} name`}
        value={name}
        onChange={(e) => setName(e.target.value)}
        required
      />
      <button type="submit">Create {what}</button>
    </form>
  );
}
