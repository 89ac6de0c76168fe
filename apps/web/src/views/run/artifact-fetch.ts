// Artifact files fetched by the browser with the session's credentials (an <img src> or a link
// cannot send them), and image files turned into object URLs.
import { authHeaders } from "../../api/client";

/**
 * An object URL showing an image file. The server sends SVG files as plain data (never as a
 * document that could run scripts); typed as SVG here, an `<img>` draws them, and an image
 * cannot run scripts either.
 */
export function imageObjectUrl(blob: Blob, path: string): string {
  return URL.createObjectURL(/\.svg$/i.test(path) ? new Blob([blob], { type: "image/svg+xml" }) : blob);
}

/** One artifact file, fetched with the session's credentials; an error names the server's message. */
export async function fetchArtifact(url: string): Promise<Blob> {
  const response = await fetch(url, { headers: authHeaders() });
  if (!response.ok) {
    const text = await response.text();
    let message = `HTTP ${response.status}`;
    try {
      message = (JSON.parse(text) as { message?: string }).message ?? message;
    } catch {
      if (text) message = `${message}: ${text.slice(0, 200)}`;
    }
    throw new Error(message);
  }
  return response.blob();
}
