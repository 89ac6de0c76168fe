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

/** "← Runs of <experiment name>": back to the runs table of an experiment. */
export function ExperimentRunsLink({ experimentId }: { experimentId: string }) {
  const experiment = useAsync(() => api().getExperiment(experimentId), [experimentId]);
  return (
    <Link href={href("/runs", { e: [experimentId] })} title={`Experiment ${experimentId}`}>
      ← Runs of {experiment.data?.name ?? `experiment ${experimentId}`}
    </Link>
  );
}
