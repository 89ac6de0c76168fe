// The image files of an artifact tree, found by walking its folders breadth-first (bounded: a run
// may hold thousands of files).
import type { FileInfo } from "@tracker-ml/client";

export const IMAGE_FILE = /\.(png|jpe?g|gif|bmp|webp|svg)$/i;

export interface ImageWalkLimits {
  /** Folders listed at most (one request each). */
  maxFolders: number;
  /** Images returned at most. */
  maxImages: number;
}

export interface ImageWalk {
  images: FileInfo[];
  /** True when a limit stopped the walk before every folder was seen. */
  truncated: boolean;
}

/** Lists folders from the root down, level by level, and keeps the image files in the order met. */
export async function findImages(
  list: (path?: string) => Promise<FileInfo[]>,
  limits: ImageWalkLimits = { maxFolders: 100, maxImages: 500 },
): Promise<ImageWalk> {
  const images: FileInfo[] = [];
  const queue: Array<string | undefined> = [undefined];
  let listed = 0;
  while (queue.length > 0) {
    if (listed >= limits.maxFolders) return { images, truncated: true };
    const folder = queue.shift();
    listed++;
    for (const file of await list(folder)) {
      if (file.is_dir) queue.push(file.path);
      else if (IMAGE_FILE.test(file.path)) {
        images.push(file);
        if (images.length >= limits.maxImages) return { images, truncated: true };
      }
    }
  }
  return { images, truncated: false };
}
