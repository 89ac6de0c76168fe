// Names instead of ids: a run or an experiment shown by its name (linked), its id in the tooltip.
import { Link } from "wouter";
import { api } from "../api/client";
import { useAsync } from "../api/use-async";
import { href } from "../url/search-state";

/** A link to a run, showing its name once loaded (the id until then, or when it has none or cannot be read). */
export function RunLink({ runId }: { runId: string }) {
  const run = useAsync(() => api().getRun(runId), [runId]);
  return (
    <Link href={`/runs/${runId}`} title={runId}>
      {run.data?.info.run_name || runId}
    </Link>
  );
}

/** An experiment's name once loaded ("experiment <id>" until then, or when it cannot be read). */
function useExperimentName(experimentId: string): string {
  const experiment = useAsync(() => api().getExperiment(experimentId), [experimentId]);
  return experiment.data?.name ?? `experiment ${experimentId}`;
}

/** "← <what> of <experiment name>": back to a list of an experiment (its runs by default). */
export function ExperimentRunsLink({
  experimentId,
  path = "/runs",
  what = "Runs",
}: {
  experimentId: string;
  path?: string;
  what?: string;
}) {
  const name = useExperimentName(experimentId);
  return (
    <Link href={href(path, { e: [experimentId] })} title={`Experiment ${experimentId}`}>
      ← {what} of {name}
    </Link>
  );
}
