import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { backendStore, startServerProcess, type ServerProcess } from "./cli-process.js";

/** How long a group's servers may take to start together (each migrates or waits for the lock). */
export const GROUP_START_TIMEOUT_MS = 240_000;

/** Several server processes over one PostgreSQL database and one artifacts destination. */
export interface ServerGroup {
  servers: ServerProcess[];
  /** The database they share. */
  databaseUrl: string;
  /** The artifacts destination they share. */
  artifactsDestination: string;
  stop(): Promise<void>;
}

/**
 * Where a group's artifacts go: below TEST_S3_URL (`s3://bucket/prefix`) when it is set, else a
 * fresh local folder. Returns the destination and how to remove a local one.
 */
export function sharedArtifactsDestination(): { destination: string; remove(): void } {
  const s3 = process.env.TEST_S3_URL;
  if (s3) return { destination: `${s3.replace(/\/+$/, "")}/group-${randomUUID()}`, remove: () => undefined };
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "tracker-group-artifacts-"));
  return { destination: folder, remove: () => fs.rmSync(folder, { recursive: true, force: true }) };
}

/**
 * Starts `count` server processes at once over one fresh database on TEST_DATABASE_URL's server
 * (they migrate it concurrently, as servers behind a load balancer do) and one artifacts
 * destination; each `env` entry adds to one process's environment (by index; the last one for the rest).
 */
export async function startServerGroup(count: number, env: NodeJS.ProcessEnv[] = [{}]): Promise<ServerGroup> {
  const store = await backendStore("postgres");
  const artifacts = sharedArtifactsDestination();
  const started = await Promise.allSettled(
    Array.from({ length: count }, (_, i) =>
      startServerProcess(["--backend-store-uri", store.uri, "--artifacts-destination", artifacts.destination], {
        env: {
          ...store.env,
          // The throwaway radosgw answers on an address, not a name: path-style requests.
          ...(process.env.TEST_S3_URL ? { TRACKER_S3_PATH_STYLE: "1" } : {}),
          ...(env[Math.min(i, env.length - 1)] ?? {}),
        },
        // Several processes start at once on a machine other tests keep busy too.
        timeoutMs: GROUP_START_TIMEOUT_MS,
      }),
    ),
  );
  const servers = started.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
  const stop = async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await store.dispose();
    artifacts.remove();
  };
  const failed = started.find((s): s is PromiseRejectedResult => s.status === "rejected");
  if (failed) {
    await stop();
    throw failed.reason;
  }
  return { servers, databaseUrl: store.uri, artifactsDestination: artifacts.destination, stop };
}
