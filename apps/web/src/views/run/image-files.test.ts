import type { FileInfo } from "@tracker-ml/client";
import { describe, expect, it } from "vitest";
import { findImages } from "./image-files";

const tree: Record<string, FileInfo[]> = {
  "": [
    { path: "plots", is_dir: true },
    { path: "a.png", is_dir: false, file_size: 10 },
    { path: "notes.txt", is_dir: false, file_size: 3 },
  ],
  plots: [
    { path: "plots/deep", is_dir: true },
    { path: "plots/B.JPG", is_dir: false },
  ],
  "plots/deep": [{ path: "plots/deep/c.svg", is_dir: false }],
};
const list = async (path?: string) => tree[path ?? ""] ?? [];

describe("findImages", () => {
  it("walks every folder and keeps image files, level by level", async () => {
    const walk = await findImages(list);
    expect(walk.images.map((f) => f.path)).toEqual(["a.png", "plots/B.JPG", "plots/deep/c.svg"]);
    expect(walk.truncated).toBe(false);
  });

  it("stops at the limits and says so", async () => {
    expect(await findImages(list, { maxFolders: 1, maxImages: 10 })).toMatchObject({
      images: [{ path: "a.png" }],
      truncated: true,
    });
    expect((await findImages(list, { maxFolders: 10, maxImages: 2 })).images).toHaveLength(2);
  });
});
