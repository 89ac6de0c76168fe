/** `s3://bucket/prefix` URIs: parsing and joining, without a client (config/ and core/ both use them). */

export interface S3Location {
  bucket: string;
  /** Key prefix without leading or trailing slashes; "" for the bucket's root. */
  prefix: string;
}

export const isS3Uri = (uri: string): boolean => /^s3:\/\//i.test(uri);

/** Bucket names S3 accepts (3-63 of lower-case letters, digits, dots and hyphens). */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** Parses `s3://bucket[/prefix]`; undefined when the bucket name is not one S3 accepts or a name in the prefix is `.`/`..`. */
export function parseS3Uri(uri: string): S3Location | undefined {
  if (!isS3Uri(uri)) return undefined;
  const rest = uri.slice("s3://".length);
  const slash = rest.indexOf("/");
  const bucket = slash === -1 ? rest : rest.slice(0, slash);
  if (!BUCKET.test(bucket)) return undefined;
  const names = (slash === -1 ? "" : rest.slice(slash + 1)).split("/").filter((n) => n !== "");
  if (names.some((n) => n === "." || n === "..")) return undefined;
  return { bucket, prefix: names.join("/") };
}

export const formatS3Uri = (location: S3Location): string =>
  `s3://${location.bucket}${location.prefix ? `/${location.prefix}` : ""}`;

/**
 * The key path of `uri` relative to `root` ("" for the root itself), or undefined when `uri` is not
 * below `root` (another bucket, a sibling prefix).
 */
export function s3PathBelow(root: S3Location, uri: string): string | undefined {
  const location = parseS3Uri(uri);
  if (!location || location.bucket !== root.bucket) return undefined;
  if (!root.prefix) return location.prefix;
  if (location.prefix === root.prefix) return "";
  return location.prefix.startsWith(`${root.prefix}/`) ? location.prefix.slice(root.prefix.length + 1) : undefined;
}
