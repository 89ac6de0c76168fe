// Health probes (ext operations getHealth, getLiveness, getReadiness).
import { ClientCore } from "./client-core.js";
import type { components } from "./generated/ext.js";
import { expectData } from "./response.js";

export type LiveStatus = components["schemas"]["LiveStatus"];
export type ReadyStatus = components["schemas"]["ReadyStatus"];

export class HealthClient extends ClientCore {
  /** Liveness: resolves while the server serves HTTP, even when its database is down. */
  async liveness(): Promise<LiveStatus> {
    return expectData(this.ext.GET("/health/live"));
  }

  /** Readiness: resolves when the server and its database work; throws TrackerError TEMPORARILY_UNAVAILABLE (503) otherwise. */
  async readiness(): Promise<ReadyStatus> {
    return expectData(this.ext.GET("/health/ready"));
  }

  /** `/health`: the same answer as readiness, at the path existing health checks use. */
  async health(): Promise<ReadyStatus> {
    return expectData(this.ext.GET("/health"));
  }
}
