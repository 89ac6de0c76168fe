// The run page's "Logged models" section: the models whose source run is this run.
import { Link } from "wouter";
import { useAsync } from "../../api/use-async";
import { ErrorBox } from "../../components/error-box";
import { href } from "../../url/search-state";
import { LoggedModelDetails } from "./logged-model-details";
import { loggedModelsOf } from "./search";

export function RunLoggedModels({ experimentId, runId }: { experimentId: string; runId: string }) {
  const found = useAsync(() => loggedModelsOf(experimentId, runId), [experimentId, runId]);
  return (
    <section aria-label="Logged models">
      <h2>Logged models{found.data ? ` (${found.data.models.length}${found.data.more ? "+" : ""})` : ""}</h2>
      <ErrorBox error={found.error} title="Logged models" />
      {found.data && found.data.models.length === 0 ? <p className="muted">None.</p> : null}
      {(found.data?.models ?? []).map((m) => (
        <LoggedModelDetails key={m.info.model_id} model={m} heading="h3" />
      ))}
      {found.data?.more ? (
        <p>
          <Link href={href("/logged-models", { e: [experimentId] })}>All logged models of the experiment</Link>
        </p>
      ) : null}
    </section>
  );
}
