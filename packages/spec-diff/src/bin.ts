#!/usr/bin/env node
// The `spec-diff` command: the bundle of src/cli.ts beside this file, started by ./launch.ts.
import { startCommand } from "./launch.js";

startCommand(import.meta.dirname);
