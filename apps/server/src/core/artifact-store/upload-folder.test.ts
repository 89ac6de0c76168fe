import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { TrackerError } from "../errors.js";
import { checkArtifactPath } from "./artifact-path.js";
import { LocalFolderStore } from "./local-folder-store.js";
import { INNER_UPLOAD_FOLDER, sweepUploadFolder, uploadFolderBeside } from "./upload-folder.js";

const made: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracker-upload-folder-"));
  made.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const write = (store: LocalFolderStore, p: string, text: string) =>
  store.write(checkArtifactPath(p), Readable.from([Buffer.from(text)]), { maxBytes: 1000 });

describe("upload folder", () => {
  it("lies beside the root, hidden", () => {
    expect(uploadFolderBeside("/srv/artifacts")).toBe("/srv/.artifacts.uploads");
    expect(uploadFolderBeside("/srv/artifacts/")).toBe("/srv/.artifacts.uploads");
  });

  it("falls back to a folder inside the root, which no path may enter or list, when the one beside cannot be made", async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, "a-file"), "in the way");
    const store = new LocalFolderStore(path.join(dir, "root"), { uploadFolder: path.join(dir, "a-file", "uploads") });
    expect(await store.uploads()).toBe(path.join(fs.realpathSync(dir), "root", INNER_UPLOAD_FOLDER));
    await write(store, "x/y.txt", "stored");
    expect(fs.readFileSync(path.join(dir, "root", "x", "y.txt"), "utf8")).toBe("stored");
    expect(fs.readdirSync(path.join(dir, "root", INNER_UPLOAD_FOLDER))).toEqual([]);
    expect((await store.list(checkArtifactPath("")))?.map((e) => e.name)).toEqual(["x"]);
    for (const attempt of [
      () => store.stat(checkArtifactPath(`${INNER_UPLOAD_FOLDER}/anything`)),
      () => write(store, `${INNER_UPLOAD_FOLDER}/planted`, "evil"),
    ]) {
      await expect(attempt()).rejects.toBeInstanceOf(TrackerError);
    }
  });

  it("sweeps the files of gone processes and of this pid, and keeps those of live ones", async () => {
    const dir = tempDir();
    const gone = spawnSync(process.execPath, ["-e", ""]).pid;
    for (const name of [`${process.pid}-mine`, `${gone}-gone`, `${process.ppid}-live`, "stray"])
      fs.writeFileSync(path.join(dir, name), "x");
    expect(await sweepUploadFolder(dir)).toBe(3);
    expect(fs.readdirSync(dir)).toEqual([`${process.ppid}-live`]);
    expect(await sweepUploadFolder(path.join(dir, "missing"))).toBe(0);
  });
});
