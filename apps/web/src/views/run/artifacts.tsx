import type { FileInfo } from "@tracker-ml/client";
import { useCallback, useEffect, useState } from "react";
import { api } from "../../api/client";
import { useAsync } from "../../api/use-async";
import { CellTable } from "../../components/cell-table";
import { ErrorBox, Loading } from "../../components/error-box";
import { formatSize } from "../../components/format";
import { parseCsv, previewKind } from "./preview-kind";
import { useSearchState } from "../../url/search-state";
import { fetchArtifact, imageObjectUrl } from "./artifact-fetch";
import { ImageGrid } from "./image-grid";
import { MlModelView } from "./mlmodel-view";

/** MLflow's model descriptor, shown as a model rather than as text. */
export const isMlModelFile = (path: string) => /(^|\/)MLmodel$/.test(path);

/** "model/MLmodel" + "input_example.json" -> "model/input_example.json". */
export function siblingPath(path: string, relative: string): string {
  const folder = path.includes("/") ? path.slice(0, path.lastIndexOf("/") + 1) : "";
  return folder + relative;
}

/** The browser endpoint serving one artifact file of a run (artifact service). */
export function artifactUrl(runId: string, path: string): string {
  return `/get-artifact?run_uuid=${encodeURIComponent(runId)}&path=${encodeURIComponent(path)}`;
}

/** Where a tree of artifacts comes from: a run's, or a logged model's. */
export interface ArtifactSource {
  /** Names the tree (folders are fetched again when it changes). */
  key: string;
  /** One level of the tree, below `path` when given. */
  list(path?: string): Promise<FileInfo[]>;
  /** The URL serving one file. */
  fileUrl(path: string): string;
}

export const runArtifacts = (runId: string): ArtifactSource => ({
  key: `run:${runId}`,
  list: (path) => api().listArtifacts(runId, path),
  fileUrl: (path) => artifactUrl(runId, path),
});

export const loggedModelArtifacts = (modelId: string): ArtifactSource => ({
  key: `model:${modelId}`,
  list: async (path) => (await api().listLoggedModelArtifacts(modelId, path)).files ?? [],
  fileUrl: (path) =>
    `/api/2.0/tracker/logged-models/${encodeURIComponent(modelId)}/artifacts/files?artifact_file_path=${encodeURIComponent(path)}`,
});

function Folder({
  source,
  path,
  onOpen,
  onFound,
  open,
}: {
  source: ArtifactSource;
  path?: string;
  onOpen: (file: FileInfo) => void;
  /** Told the open file's entry when this folder lists it (the URL names only its path). */
  onFound: (file: FileInfo) => void;
  open: string | undefined;
}) {
  const files = useAsync(() => source.list(path), [source.key, path]);
  // The folders on the way to the open file start expanded.
  const [expanded, setExpanded] = useState<Set<string>>(() => new Set(ancestorsOf(open)));
  const found = files.data?.find((f) => !f.is_dir && f.path === open);
  useEffect(() => {
    if (found) onFound(found);
  }, [found, onFound]);
  if (files.error) return <ErrorBox error={files.error} title="Artifacts" />;
  if (!files.data) return <Loading what="artifacts" />;
  if (files.data.length === 0 && !path) return <p className="muted">No artifacts.</p>;
  return (
    <ul>
      {files.data.map((file) => {
        const name = file.path.split("/").pop();
        if (file.is_dir) {
          const isOpen = expanded.has(file.path);
          return (
            <li key={file.path}>
              <button
                type="button"
                className="file"
                aria-expanded={isOpen}
                onClick={() => setExpanded((s) => (s.delete(file.path) ? new Set(s) : new Set(s).add(file.path)))}
              >
                {isOpen ? "▾" : "▸"} {name}/
              </button>
              {isOpen ? (
                <Folder source={source} path={file.path} onOpen={onOpen} onFound={onFound} open={open} />
              ) : null}
            </li>
          );
        }
        return (
          <li key={file.path}>
            <button type="button" className="file" aria-current={open === file.path} onClick={() => onOpen(file)}>
              {name}
            </button>{" "}
            <span className="muted">{formatSize(file.file_size)}</span>
          </li>
        );
      })}
    </ul>
  );
}

function Preview({ source, file }: { source: ArtifactSource; file: FileInfo }) {
  const url = source.fileUrl(file.path);
  const kind = previewKind(file.path, Number(file.file_size ?? 0));
  const blob = useAsync(() => (kind === "none" ? Promise.resolve(undefined) : fetchArtifact(url)), [url, kind]);
  const [text, setText] = useState<string | undefined>();
  const [objectUrl, setObjectUrl] = useState<string | undefined>();
  useEffect(() => {
    setText(undefined);
    setObjectUrl(undefined);
    if (!blob.data) return;
    if (kind === "image") {
      const made = imageObjectUrl(blob.data, file.path);
      setObjectUrl(made);
      return () => URL.revokeObjectURL(made);
    }
    void blob.data.text().then(setText);
    return undefined;
  }, [blob.data, kind, file.path]);
  const download = async () => {
    const data = blob.data ?? (await fetchArtifact(url));
    const link = document.createElement("a");
    link.href = URL.createObjectURL(data);
    link.download = file.path.split("/").pop() ?? "artifact";
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
  };
  return (
    <div className="preview" role="region" aria-label={`Preview of ${file.path}`}>
      <div className="toolbar">
        <strong>{file.path}</strong> <span className="muted">{formatSize(file.file_size)}</span>
        <button type="button" onClick={() => void download()}>
          Download
        </button>
      </div>
      <ErrorBox error={blob.error} title="Preview" />
      {kind === "none" ? <p className="muted">No preview for this file type or size.</p> : null}
      {kind === "image" && objectUrl ? <img src={objectUrl} alt={file.path} /> : null}
      {kind === "json" && text !== undefined ? <pre className="pre">{prettyJson(text)}</pre> : null}
      {kind === "text" && text !== undefined ? (
        isMlModelFile(file.path) ? (
          <MlModelView text={text} fileUrl={(relative) => source.fileUrl(siblingPath(file.path, relative))} />
        ) : (
          <pre className="pre">{text}</pre>
        )
      ) : null}
      {kind === "csv" && text !== undefined ? (
        <CsvTable text={text} separator={file.path.endsWith(".tsv") ? "\t" : ","} />
      ) : null}
    </div>
  );
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function CsvTable({ text, separator }: { text: string; separator: string }) {
  const rows = parseCsv(text, separator, 500);
  const [head, ...body] = rows;
  if (!head) return <p className="muted">Empty file.</p>;
  return <CellTable columns={head} rows={body} />;
}

/** "a/b/c.txt" -> ["a", "a/b"]. */
export function ancestorsOf(path: string | undefined): string[] {
  const parts = (path ?? "").split("/");
  return parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1).join("/"));
}

/** An artifact tree (a run's or a logged model's) and a preview of the chosen file, whose path is in the URL (`artifact`). */
export function Artifacts({ source }: { source: ArtifactSource }) {
  const state = useSearchState();
  const openPath = state.get("artifact");
  const [info, setInfo] = useState<FileInfo | undefined>();
  const open = info && info.path === openPath ? info : undefined;
  const { set } = state;
  const onOpen = useCallback(
    (file: FileInfo) => {
      setInfo(file);
      set({ artifact: file.path }, { replace: true });
    },
    [set],
  );
  return (
    <section aria-label="Artifacts">
      <h2>Artifacts</h2>
      <ImageGrid source={source} onOpen={onOpen} />
      <div className="artifacts">
        <div className="tree">
          <Folder source={source} onOpen={onOpen} onFound={setInfo} open={openPath} />
        </div>
        {open ? <Preview source={source} file={open} /> : <p className="muted">Choose a file to preview it.</p>}
      </div>
    </section>
  );
}
