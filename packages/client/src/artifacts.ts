// Run artifacts through the server's artifact service (spec/ext.yaml, mlflow-artifacts API):
// upload, download, list a whole tree. Browser-safe: sources are Blobs, bytes or web streams here;
// file paths, Node streams and folders are added by the Node entry (node.ts).
import { ClientCore } from "./client-core.js";
import type { FileInfo } from "./entities.js";
import { TrackerError } from "./errors.js";

/** Called as bytes go out or come in; `total` is undefined when the size is not known. */
export type ProgressCallback = (progress: { path: string; bytes: number; total?: number }) => void;

export interface TransferOptions {
  onProgress?: ProgressCallback;
  /** Cancels the transfer. */
  signal?: AbortSignal;
}

/** What can be uploaded in any JavaScript runtime. A `File` carries its own name. */
export type ArtifactBody = Blob | ArrayBuffer | Uint8Array | ReadableStream<Uint8Array>;

/** A file to upload, as the Node entry resolves file paths and Node streams. */
export interface OpenedSource {
  body: ArtifactBody;
  /** The file's name, when the source has one (a path, a File). */
  name?: string;
  size?: number;
}

/** File-system access the Node entry provides (undefined in browsers). */
export interface ArtifactFileSystem {
  open(source: unknown): Promise<OpenedSource | undefined>;
  /** Every file below `dir`, as `/`-separated relative paths. */
  walk(dir: string): Promise<string[]>;
  join(dir: string, relative: string): string;
  write(file: string, body: ReadableStream<Uint8Array>): Promise<void>;
}

const PROXY = "/api/2.0/mlflow-artifacts/artifacts";

const encodePath = (p: string) => p.split("/").filter(Boolean).map(encodeURIComponent).join("/");
const joinPath = (...parts: Array<string | undefined>) =>
  parts
    .filter((p): p is string => !!p)
    .join("/")
    .split("/")
    .filter(Boolean)
    .join("/");

/** Runs `work` over `items`, at most `limit` at a time; rejects with the first failure. */
export async function eachLimited<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}

function counted(body: ReadableStream<Uint8Array>, report: (bytes: number) => void): ReadableStream<Uint8Array> {
  let bytes = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        bytes += chunk.byteLength;
        report(bytes);
        controller.enqueue(chunk);
      },
    }),
  );
}

async function failure(response: Response): Promise<TrackerError> {
  const text = await response.text().catch(() => "");
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return TrackerError.fromResponse(response.status, body);
}

export class ArtifactsClient extends ClientCore {
  /** The run's artifact root below the artifact service, e.g. `1/<run_id>/artifacts`. */
  async artifactServicePath(runId: string): Promise<string> {
    const response = await this.raw.GET("/2.0/tracker/runs/get", { params: { query: { run_id: runId } } });
    if (!response.data) throw TrackerError.fromResponse(response.response.status, response.error);
    const uri = response.data.run.info.artifact_uri ?? "";
    const proxied = /^mlflow-artifacts:(?:\/\/[^/]*)?\/*(.*)$/.exec(uri);
    if (proxied) return proxied[1]!.replace(/\/+$/, "");
    const http = uri.indexOf(PROXY);
    if (/^https?:/.test(uri) && http !== -1) return uri.slice(http + PROXY.length).replace(/^\/+|\/+$/g, "");
    throw new TrackerError({
      errorCode: "INVALID_PARAMETER_VALUE",
      status: 0,
      message: `The artifacts of run ${runId} are not served through the server (artifact_uri ${uri}); write them to that location directly`,
    });
  }

  /** File-system access: none in browsers; the Node entry's TrackerClient overrides this (not for callers). */
  artifactFileSystem(): ArtifactFileSystem | undefined {
    return undefined;
  }

  /**
   * Uploads one file to a run's artifacts. `source` is a Blob, bytes or a web stream (and, with
   * the Node entry, a file path or a Node stream). A named source (a path, a `File`) is stored as
   * `<artifactPath>/<its name>`, as MLflow's `log_artifact` does; an unnamed one at `artifactPath`.
   * Returns the path of the stored file, relative to the run's artifact root.
   */
  async uploadArtifact(
    runId: string,
    source: ArtifactBody | string | object,
    artifactPath?: string,
    options: TransferOptions = {},
  ): Promise<string> {
    const opened = await openSource(this, source);
    const target = opened.name !== undefined ? joinPath(artifactPath, opened.name) : joinPath(artifactPath);
    if (!target) throw new TypeError("artifactPath must name the file when the source has no name");
    await putFile(this, await this.artifactServicePath(runId), target, opened, options);
    return target;
  }

  /**
   * Uploads every file below a local folder (Node), `parallel` at a time (default 8), to
   * `<artifactPath>/<relative path>`. Empty folders are not sent (as with MLflow).
   */
  async uploadArtifacts(
    runId: string,
    dir: string,
    artifactPath?: string,
    options: TransferOptions & { parallel?: number } = {},
  ): Promise<string[]> {
    const fileSystem = requireFileSystem(this, "uploadArtifacts");
    const root = await this.artifactServicePath(runId);
    const files = await fileSystem.walk(dir);
    const done: string[] = [];
    await eachLimited(files, options.parallel ?? 8, async (relative) => {
      const opened = await fileSystem.open(fileSystem.join(dir, relative));
      const target = joinPath(artifactPath, relative);
      await putFile(this, root, target, opened!, options);
      done.push(target);
    });
    return done.sort();
  }

  /** The file's bytes as a web stream (in Node, `Readable.fromWeb` turns it into a Node stream). */
  async downloadArtifact(
    runId: string,
    path: string,
    options: TransferOptions = {},
  ): Promise<ReadableStream<Uint8Array>> {
    const root = await this.artifactServicePath(runId);
    const response = await send(this, "GET", `${PROXY}/${encodePath(joinPath(root, path))}`, {
      signal: options.signal,
    });
    const total = response.headers.get("content-length");
    const body = response.body ?? new ReadableStream<Uint8Array>({ start: (c) => c.close() });
    const onProgress = options.onProgress;
    if (!onProgress) return body;
    return counted(body, (bytes) => onProgress({ path, bytes, total: total === null ? undefined : Number(total) }));
  }

  /**
   * Downloads a file or a whole directory of a run's artifacts into a local folder (Node),
   * `parallel` files at a time (default 8), keeping the layout below `path`. Returns the files written,
   * relative to `dir`.
   */
  async downloadArtifacts(
    runId: string,
    path: string,
    dir: string,
    options: TransferOptions & { parallel?: number } = {},
  ): Promise<string[]> {
    const fileSystem = requireFileSystem(this, "downloadArtifacts");
    const prefix = joinPath(path);
    const tree = (await this.listArtifactTree(runId, prefix)).filter((f) => !f.is_dir);
    const files = tree.length > 0 ? tree.map((f) => f.path) : [prefix];
    const base =
      prefix.includes("/") && tree.length === 0
        ? prefix.slice(0, prefix.lastIndexOf("/"))
        : tree.length === 0
          ? ""
          : prefix;
    const written: string[] = [];
    await eachLimited(files, options.parallel ?? 8, async (file) => {
      const relative = base ? file.slice(base.length + 1) : file;
      if (relative.split("/").some((name) => name === ".." || name === "." || name === ""))
        throw new TypeError(`Refusing to write the artifact '${file}' outside ${dir}`);
      await fileSystem.write(fileSystem.join(dir, relative), await this.downloadArtifact(runId, file, options));
      written.push(relative);
    });
    return written.sort();
  }

  /** Every file and directory below `path` (the whole run when omitted), depth first, run-relative paths. */
  async listArtifactTree(runId: string, path?: string): Promise<FileInfo[]> {
    const all: FileInfo[] = [];
    const visit = async (dir: string | undefined) => {
      for (const entry of await this.listArtifacts(runId, dir)) {
        all.push(entry);
        if (entry.is_dir) await visit(entry.path);
      }
    };
    await visit(path ? joinPath(path) : undefined);
    return all;
  }

  /** One level of a run's artifacts (revision C artifacts/list, all pages); TrackingClient has it too. */
  declare listArtifacts: (runId: string, path?: string) => Promise<FileInfo[]>;
}

async function send(
  client: ClientCore,
  method: string,
  path: string,
  init: RequestInit & { duplex?: "half" } = {},
): Promise<Response> {
  const request = new Request(`${client.transfer.baseUrl}${path}`, {
    ...init,
    method,
    headers: { ...client.transfer.headers, ...(init.headers as Record<string, string>) },
  });
  let response: Response;
  try {
    response = await client.transfer.fetch(request);
  } catch (cause) {
    if (cause instanceof TrackerError) throw cause;
    throw new TrackerError({
      errorCode: "NETWORK_ERROR",
      status: 0,
      message: `${method} ${path} failed: ${(cause as Error).message}`,
      cause,
    });
  }
  if (!response.ok && response.status !== 304) throw await failure(response);
  return response;
}

function requireFileSystem(client: ArtifactsClient, method: string): ArtifactFileSystem {
  const fileSystem = client.artifactFileSystem();
  if (!fileSystem)
    throw new TypeError(
      `${method} needs a file system: use the TrackerClient of the Node entry (@tracker-ml/client under Node)`,
    );
  return fileSystem;
}

async function openSource(client: ArtifactsClient, source: unknown): Promise<OpenedSource> {
  if (typeof Blob !== "undefined" && source instanceof Blob) {
    const name = (source as Blob & { name?: unknown }).name;
    return { body: source, name: typeof name === "string" && name ? name : undefined, size: source.size };
  }
  if (source instanceof ArrayBuffer || source instanceof Uint8Array) return { body: source, size: source.byteLength };
  if (source instanceof ReadableStream) return { body: source };
  const opened = await client.artifactFileSystem()?.open(source);
  if (opened) return opened;
  throw new TypeError(
    "An artifact source must be a Blob, an ArrayBuffer, a Uint8Array or a ReadableStream (or, in Node, a file path or a stream)",
  );
}

async function putFile(
  client: ArtifactsClient,
  root: string,
  target: string,
  opened: OpenedSource,
  options: TransferOptions,
): Promise<void> {
  let body: BodyInit = opened.body as BodyInit;
  const onProgress = options.onProgress;
  if (onProgress) {
    const stream = opened.body instanceof ReadableStream ? opened.body : new Blob([opened.body as BlobPart]).stream();
    body = counted(stream, (bytes) => onProgress({ path: target, bytes, total: opened.size }));
  }
  const headers: Record<string, string> = { "Content-Type": "application/octet-stream" };
  const init: RequestInit & { duplex?: "half" } = { body, headers, signal: options.signal };
  if (body instanceof ReadableStream) init.duplex = "half";
  await send(client, "PUT", `${PROXY}/${encodePath(joinPath(root, target))}`, init);
}
