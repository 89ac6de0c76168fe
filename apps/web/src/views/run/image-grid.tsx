import type { FileInfo } from "@tracker-ml/client";
import { useEffect, useRef, useState } from "react";
import { useAsync } from "../../api/use-async";
import { ErrorBox } from "../../components/error-box";
import { fetchArtifact, imageObjectUrl } from "./artifact-fetch";
import type { ArtifactSource } from "./artifacts";
import { findImages } from "./image-files";

/**
 * One thumbnail: fetched (with the session's credentials, which an `<img src>` cannot send) only
 * once it scrolls near the screen.
 */
function Thumbnail({ url, file, onOpen }: { url: string; file: FileInfo; onOpen: (file: FileInfo) => void }) {
  const box = useRef<HTMLButtonElement>(null);
  const [visible, setVisible] = useState(false);
  const [objectUrl, setObjectUrl] = useState<string | undefined>();
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const element = box.current;
    if (!element || visible) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setVisible(true);
      },
      { rootMargin: "200px" },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [visible]);
  useEffect(() => {
    if (!visible) return;
    let made: string | undefined;
    let cancelled = false;
    fetchArtifact(url).then(
      (blob) => {
        if (cancelled) return;
        made = imageObjectUrl(blob, file.path);
        setObjectUrl(made);
      },
      () => !cancelled && setFailed(true),
    );
    return () => {
      cancelled = true;
      if (made) URL.revokeObjectURL(made);
    };
  }, [visible, url, file.path]);
  const name = file.path.split("/").pop() ?? file.path;
  return (
    <li>
      <button type="button" ref={box} className="thumb" onClick={() => onOpen(file)} aria-label={`Open ${file.path}`}>
        <span className="thumb-frame">
          {objectUrl ? (
            <img src={objectUrl} alt={file.path} />
          ) : (
            <span className="muted">{failed ? "failed" : "…"}</span>
          )}
        </span>
        <span className="thumb-name">{name}</span>
      </button>
    </li>
  );
}

/** The images anywhere in an artifact tree as a grid of lazily loaded thumbnails; a click opens one in the preview. */
export function ImageGrid({ source, onOpen }: { source: ArtifactSource; onOpen: (file: FileInfo) => void }) {
  const walk = useAsync(() => findImages((path) => source.list(path)), [source.key]);
  if (walk.error) return <ErrorBox error={walk.error} title="Images" />;
  const images = walk.data?.images ?? [];
  if (images.length === 0) return null;
  return (
    <section aria-label="Images" className="image-grid">
      <h3>
        Images ({images.length}
        {walk.data?.truncated ? "+" : ""})
      </h3>
      <ul>
        {images.map((file) => (
          <Thumbnail key={file.path} url={source.fileUrl(file.path)} file={file} onOpen={onOpen} />
        ))}
      </ul>
    </section>
  );
}
