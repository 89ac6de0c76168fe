/**
 * Debian's Chromium for the web UI's end-to-end tests and its benchmark (the registry's browser
 * builds cannot be downloaded here): where it is, and the flags that keep it off the network
 * (closed here, and refused many times at once without them) and off the GPU.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export const CHROMIUM_ARGS: readonly string[] = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
