import { apiCompare } from "api-smart-diff";
import { merge } from "allof-merge";
import { parse } from "yaml";
import fs from "node:fs";
const dir = process.argv[2];
const norm = (d) => {
  const p = {};
  for (const [k, v] of Object.entries(d.paths)) p[k.replace(/^\/2\.0(\/preview)?\/tracker/, "")] = v;
  d.paths = p;
  return merge(d, { mergeRefSibling: true, mergeCombinarySibling: true });
};
const a = parse(fs.readFileSync(`${dir}/before.yaml`, "utf8"));
const b = parse(fs.readFileSync(`${dir}/after.yaml`, "utf8"));
const { diffs } = apiCompare(norm(a), norm(b));
for (const d of diffs)
  console.log(
    d.type,
    d.action,
    JSON.stringify(d.path),
    "|",
    d.description,
    "|",
    JSON.stringify(d.before)?.slice(0, 60),
    JSON.stringify(d.after)?.slice(0, 60),
  );
