import { invalidParameter } from "../errors.js";

/**
 * The one place where a client-given artifact path is checked, before any file-system call: every
 * entry point (mlflow-artifacts, artifacts/list and get, /get-artifact, model-version sources)
 * turns its raw path into an ArtifactPath here, and the stores accept nothing else.
 */

declare const checked: unique symbol;

/** A relative artifact path made of `/`-separated names, none of them `.` or `..`; "" is the root. */
export type ArtifactPath = string & { readonly [checked]: true };

export const ROOT_PATH = "" as ArtifactPath;

/** Longest name (bytes) most file systems accept. */
const MAX_NAME_BYTES = 255;

/** Times MLflow's server decodes a path before it gives up on it (mlflow/utils/uri.py, `_decode`). */
const MAX_DECODINGS = 10;

/**
 * `raw` percent-decoded until it stops changing, as MLflow's server does before it checks a path
 * (so that `%252E%252E` is `..` too); undefined when it still changes after MAX_DECODINGS rounds.
 * A malformed escape (`100%.txt`) ends the decoding, as Python's unquote leaves it as it is.
 */
function fullyDecoded(raw: string): string | undefined {
  let text = raw;
  for (let i = 0; i < MAX_DECODINGS; i++) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(text);
    } catch {
      return text;
    }
    if (decoded === text) return text;
    text = decoded;
  }
  return undefined;
}

/**
 * Checks a relative artifact path as MLflow's server does (validate_path_is_safe in
 * mlflow/utils/uri.py), on the path percent-decoded until it stops changing: no `#`, no NUL, no
 * backslash, not absolute (`/x`, `C:x`, `file:///x`), no `..` name; and no name over 255 bytes.
 * Empty names and `.` (`a//b`, `./a`, a trailing `/`) are dropped. The path is kept as given (once
 * decoded by the HTTP layer), not decoded further. Throws 400 INVALID_PARAMETER_VALUE; the message
 * quotes the path the client sent and never a server folder.
 */
export function checkArtifactPath(raw: string, what = "path"): ArtifactPath {
  const refuse = (why: string) => invalidParameter(`Invalid ${what} '${raw.replaceAll("\u0000", "\\0")}': ${why}`);
  const decoded = fullyDecoded(raw);
  if (decoded === undefined) throw refuse(`it is still percent-encoded after ${MAX_DECODINGS} decodings`);
  for (const text of new Set([raw, decoded])) {
    if (text.includes("\u0000")) throw refuse("it contains a NUL character");
    if (text.includes("\\")) throw refuse("backslashes are not allowed");
    if (text.includes("#")) throw refuse("'#' is not allowed");
    if (text.startsWith("/") || /^[A-Za-z]:/.test(text) || /^file:\/\//i.test(text))
      throw refuse("it must be relative");
    if (text.split("/").includes("..")) throw refuse("'.' and '..' are not allowed");
  }
  const names = raw.split("/").filter((name) => name !== "" && name !== ".");
  for (const name of names) {
    if (fullyDecoded(name) === ".") throw refuse("'.' and '..' are not allowed");
    if (Buffer.byteLength(name) > MAX_NAME_BYTES) throw refuse(`a name is longer than ${MAX_NAME_BYTES} bytes`);
  }
  return names.join("/") as ArtifactPath;
}

/** `a/b` + `c/d` (both checked): `a/b/c/d`. */
export function joinArtifactPath(base: ArtifactPath, rest: ArtifactPath): ArtifactPath {
  return (base && rest ? `${base}/${rest}` : base || rest) as ArtifactPath;
}

/** The last name of a path ("" for the root). */
export const baseName = (p: ArtifactPath): string => p.slice(p.lastIndexOf("/") + 1);
