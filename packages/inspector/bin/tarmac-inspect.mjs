#!/usr/bin/env node
// Runs the built command (packages/inspector/dist/cli.js), made by `npm install` or `npm run build`.
import { existsSync } from "node:fs";

const built = new URL("../dist/cli.js", import.meta.url);
if (!existsSync(built)) {
  process.stderr.write("tarmac-inspect is not built yet: run `npm run build` at the repository root.\n");
  process.exit(2);
}
const { runCli } = await import(built.href);
process.exitCode = await runCli(process.argv.slice(2));
