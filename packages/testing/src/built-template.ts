import fs from "node:fs";
import path from "node:path";

/** Whether the build's template exists and no migration source was changed after it was made. */
export function builtTemplateIsCurrent(template: string, migrations: string): boolean {
  const made = fs.statSync(path.join(template, "PG_VERSION"), { throwIfNoEntry: false });
  if (!made || !fs.existsSync(migrations)) return false;
  const changed = fs.readdirSync(migrations).map((name) => fs.statSync(path.join(migrations, name)).mtimeMs);
  return changed.every((mtime) => mtime <= made.mtimeMs);
}
