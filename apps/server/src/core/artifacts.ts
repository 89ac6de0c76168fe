import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Services } from "./services.js";
import { invalidParameter, notFound } from "./errors.js";
import type { Page } from "./model.js";
import { getRun } from "./runs.js";
import { decodeOffsetToken, encodeOffsetToken } from "./page-token.js";

/** A run's artifacts on the local file system; every path is checked to stay inside the run's root. */

export interface FileInfoRecord {
  path: string;
  isDir: boolean;
  fileSize?: number;
}

export const ARTIFACT_PAGE_SIZE = 1000;

/** The local directory of an artifact URI (`/abs/path` or `file://`), or undefined for remote stores. */
export function localArtifactRoot(artifactUri: string): string | undefined {
  if (artifactUri.startsWith("file://")) return fileURLToPath(artifactUri);
  if (artifactUri.startsWith("file:")) return artifactUri.slice("file:".length);
  if (path.isAbsolute(artifactUri)) return artifactUri;
  return undefined;
}

/** Checks a client-given relative path: no `..` segments, not absolute, no NUL. */
export function checkRelativeArtifactPath(relative: string): string {
  const normalized = relative.replace(/\\/g, "/");
  if (normalized.includes("\u0000")) throw invalidParameter("Invalid path: it contains a NUL character");
  if (normalized.startsWith("/") || /^[A-Za-z]:/.test(normalized)) throw invalidParameter(`Invalid path '${relative}': it must be relative`);
  if (normalized.split("/").some((segment) => segment === "..")) {
    throw invalidParameter(`Invalid path '${relative}': '..' is not allowed`);
  }
  return normalized.replace(/^\.\/+/, "").replace(/\/+$/, "");
}

const inside = (child: string, parent: string) => child === parent || child.startsWith(parent.endsWith(path.sep) ? parent : parent + path.sep);

/**
 * The run's local artifact directory, which must lie inside the server's artifact root: a run (or
 * experiment) whose artifact location points elsewhere on this machine is not served, so a client
 * cannot read arbitrary folders by creating an experiment with `artifact_location: "/etc"`.
 */
function servedRoot(services: Services, rootUri: string): string | undefined {
  let root: string | undefined;
  try {
    root = localArtifactRoot(rootUri);
  } catch {
    // e.g. file://other-host/x, which names no local folder
    throw invalidParameter(`The artifact location '${rootUri}' is not a valid local path`);
  }
  if (root === undefined) return undefined;
  const resolved = path.resolve(root);
  if (!inside(resolved, path.resolve(services.config.artifactRoot))) {
    throw invalidParameter(`The artifact location '${rootUri}' is outside the server's artifact root; its files are not served`);
  }
  return resolved;
}

/**
 * Resolves `relative` inside `root`, following symlinks, and refuses anything that ends up outside
 * the run's directory or the server's artifact root (a symlinked run directory included).
 */
async function resolveInside(services: Services, root: string, relative: string): Promise<{ target: string; realRoot: string } | undefined> {
  const target = path.resolve(root, relative);
  let realBase: string;
  let realRoot: string;
  let realTarget: string;
  try {
    realBase = await fs.realpath(services.config.artifactRoot);
    realRoot = await fs.realpath(root);
    realTarget = await fs.realpath(target);
  } catch {
    return undefined; // does not exist
  }
  if (!inside(realRoot, realBase) || !inside(realTarget, realRoot)) {
    throw invalidParameter(`Invalid path '${relative}': it leaves the run's artifact directory`);
  }
  return { target: realTarget, realRoot };
}

export async function listArtifacts(
  services: Services,
  runId: string,
  relativePath: string | undefined,
  pageToken?: string,
): Promise<{ rootUri: string; page: Page<FileInfoRecord> }> {
  const run = await getRun(services, runId);
  const rootUri = run.info.artifactUri;
  const relative = checkRelativeArtifactPath(relativePath ?? "");
  const offset = pageToken ? decodeOffsetToken(pageToken) : 0;
  const root = servedRoot(services, rootUri);
  if (!root) return { rootUri, page: { items: [] } };
  const resolved = await resolveInside(services, root, relative);
  if (!resolved) return { rootUri, page: { items: [] } };
  const dir = resolved.target;
  const stat = await fs.stat(dir);
  if (!stat.isDirectory()) return { rootUri, page: { items: [] } };
  const entries = (await fs.readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const slice = entries.slice(offset, offset + ARTIFACT_PAGE_SIZE);
  const items: FileInfoRecord[] = [];
  for (const entry of slice) {
    const entryPath = relative ? `${relative}/${entry.name}` : entry.name;
    const full = path.join(dir, entry.name);
    const real = await fs.realpath(full).catch(() => undefined);
    if (!real || !inside(real, resolved.realRoot)) continue; // dangling, or a symlink leading out: not shown
    const info = await fs.stat(real).catch(() => undefined);
    if (!info) continue;
    items.push(info.isDirectory() ? { path: entryPath, isDir: true } : { path: entryPath, isDir: false, fileSize: info.size });
  }
  const next = offset + ARTIFACT_PAGE_SIZE < entries.length ? encodeOffsetToken(offset + ARTIFACT_PAGE_SIZE) : undefined;
  return { rootUri, page: { items, nextPageToken: next } };
}

/** Revision A's artifacts/get: the absolute file to stream, after every path check. */
export async function artifactFile(services: Services, runId: string, relativePath: string): Promise<{ file: string; size: number }> {
  const run = await getRun(services, runId);
  const relative = checkRelativeArtifactPath(relativePath);
  if (!relative) throw invalidParameter("path must name a file");
  const root = servedRoot(services, run.info.artifactUri);
  if (!root) throw notFound(`Artifact '${relativePath}' is not on the local file system`);
  const file = (await resolveInside(services, root, relative))?.target;
  if (!file) throw notFound(`Artifact '${relativePath}' not found for run with id=${runId}`);
  const stat = await fs.stat(file);
  if (!stat.isFile()) throw notFound(`Artifact '${relativePath}' is not a file`);
  return { file, size: stat.size };
}
