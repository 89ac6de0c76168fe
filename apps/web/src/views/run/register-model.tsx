import { isTrackerError } from "@tracker-ml/client";
import { useState, type FormEvent } from "react";
import { useLocation } from "wouter";
import { api } from "../../api/client";
import { attempt } from "../../api/use-async";
import { ErrorBox } from "../../components/error-box";

/** Registers a folder of the run's artifacts as a new version of a (new or existing) model. */
export function RegisterModel({ runId, artifactUri }: { runId: string; artifactUri: string }) {
  const [, navigate] = useLocation();
  const [name, setName] = useState("");
  const [folder, setFolder] = useState("model");
  const [error, setError] = useState<Error | undefined>();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const model = name.trim();
    let version = "";
    const failure = await attempt(async () => {
      try {
        await api().createRegisteredModel(model);
      } catch (e) {
        if (!isTrackerError(e, "RESOURCE_ALREADY_EXISTS")) throw e;
      }
      const source = `${artifactUri.replace(/\/+$/, "")}/${folder.replace(/^\/+/, "")}`;
      version = (await api().createModelVersion(model, source, { runId })).version;
    });
    setError(failure);
    if (!failure) navigate(`/models/${encodeURIComponent(model)}/versions/${version}`);
  };
  return (
    <form className="inline-form" onSubmit={submit} aria-label="Register model">
      <label>
        Model name <input value={name} onChange={(e) => setName(e.target.value)} required />
      </label>
      <label>
        Artifact folder <input value={folder} onChange={(e) => setFolder(e.target.value)} />
      </label>
      <button type="submit">Register model</button>
      <ErrorBox error={error} />
    </form>
  );
}
