// `/logged-models/<model id>`: one logged model, with links to its experiment's list and its run.
import { Link } from "wouter";
import { api } from "../../api/client";
import { useAsync } from "../../api/use-async";
import { ErrorBox, Loading } from "../../components/error-box";
import { href } from "../../url/search-state";
import { LoggedModelDetails } from "./logged-model-details";

export function LoggedModelPage({ modelId }: { modelId: string }) {
  const model = useAsync(() => api().getLoggedModel(modelId, true), [modelId]);
  if (model.error && !model.data) return <ErrorBox error={model.error} title="Could not load the logged model" />;
  if (!model.data) return <Loading what="logged model" />;
  return (
    <div>
      <p>
        <Link href={href("/logged-models", { e: [model.data.info.experiment_id] })}>
          ← Logged models of experiment {model.data.info.experiment_id}
        </Link>
      </p>
      <LoggedModelDetails model={model.data} heading="h1" />
    </div>
  );
}
