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

function decodedOnce(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * Checks a relative artifact path: no NUL, no backslash, not absolute (`/x`, `C:x`), no `..` name
 * (nor `..` or `.` percent-encoded, e.g. `%2E%2E`), no name over 255 bytes. Empty names and `.`
 * (`a//b`, `./a`, a trailing `/`) are dropped. Throws 400 INVALID_PARAMETER_VALUE; the message quotes the path the
 * client sent and never a server folder.
 */
export function checkArtifactPath(raw: string, what = "path"): ArtifactPath {
  const refuse = (why: string) => invalidParameter(`Invalid ${what} '${raw.replaceAll("\u0000", "\\0")}': ${why}`);
  if (raw.includes("\u0000")) throw refuse("it contains a NUL character");
  if (raw.includes("\\")) throw refuse("backslashes are not allowed");
  if (raw.startsWith("/") || /^[A-Za-z]:/.test(raw)) throw refuse("it must be relative");
  const names = raw.split("/").filter((name) => name !== "" && name !== ".");
  for (const name of names) {
    const decoded = decodedOnce(name);
    if (decoded === "." || decoded === ".." || decoded.includes("/") || decoded.includes("\\"))
      throw refuse("'.' and '..' are not allowed");
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
