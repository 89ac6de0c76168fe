#!/usr/bin/env node
// The `tracker` command. The compiled CLI lives in dist/, which exists only after a build; this
// committed file is what the package's bin points at, so installing the workspace before any
// build links the command without a warning, and running it before a build says what to do.
import fs from "node:fs";

const cli = new URL("../dist/cli.js", import.meta.url);
if (!fs.existsSync(cli)) {
  console.error("tracker: the server is not built yet; run `pnpm build` (or `pnpm start`) first");
  process.exit(2);
}
await import(cli.href);
