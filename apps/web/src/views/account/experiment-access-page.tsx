import { Link } from "wouter";
import { ErrorBox } from "../../components/error-box";
import { api } from "../../api/client";
import { useAsync } from "../../api/use-async";
import { useSessionUser } from "../../api/session";
import { href } from "../../url/search-state";
import { PermissionsPanel } from "./permissions-panel";

/** Who may read, edit or manage one experiment (users with MANAGE on it, and admins). */
export function ExperimentAccessPage({ experimentId }: { experimentId: string }) {
  const user = useSessionUser();
  const experiment = useAsync(() => api().getExperiment(experimentId), [experimentId]);
  const name = experiment.data?.name ?? `experiment ${experimentId}`;
  return (
    <div className="account-page">
      <p>
        <Link href={href("/runs", { e: [experimentId] })}>← Runs of {name}</Link>
      </p>
      <h1>Sharing: {name}</h1>
      <ErrorBox error={experiment.error} />
      <PermissionsPanel resource={{ kind: "experiment", id: experimentId }} title="Who may use this experiment" />
      {user ? (
        <p className="notice">
          Only users with MANAGE on this experiment, and admins, see and change its permissions here.
        </p>
      ) : null}
    </div>
  );
}
