/** Revision-agnostic records the core hands to the HTTP adapters (defined in the bottom layer, domain/records.ts). */
export type {
  ExperimentRecord,
  KeyValue,
  LifecycleStage,
  MetricRecord,
  Page,
  RunInfoRecord,
  RunRecord,
  RunStatus,
  ViewType,
} from "../domain/records.js";
