// Which preview a file gets, by extension and size, and a small CSV parser for the table preview.

export type PreviewKind = "image" | "json" | "text" | "csv" | "none";

const MAX_PREVIEW_BYTES = 5 * 1024 * 1024;
const IMAGE = /\.(png|jpe?g|gif|bmp|webp|svg)$/i;
const TEXT =
  /(\.(txt|log|md|py|yaml|yml|toml|ini|cfg|sh|js|ts|r|java|scala|sql|xml|html?)$)|(^|\/)(MLmodel|requirements\.txt|conda\.yaml|Dockerfile|LICENSE)$/i;

export function previewKind(path: string, size: number): PreviewKind {
  if (size > MAX_PREVIEW_BYTES) return "none";
  if (IMAGE.test(path)) return "image";
  if (/\.json$/i.test(path)) return "json";
  if (/\.(csv|tsv)$/i.test(path)) return "csv";
  if (TEXT.test(path)) return "text";
  return "none";
}

/** RFC 4180-style rows (quoted fields, doubled quotes, newlines in quotes), at most `limit` rows. */
export function parseCsv(text: string, separator = ",", limit = Infinity): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length && rows.length < limit; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === "") quoted = true;
    else if (c === separator) {
      row.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += c;
  }
  if ((field !== "" || row.length > 0) && rows.length < limit) rows.push([...row, field]);
  return rows;
}
