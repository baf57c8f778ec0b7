#!/usr/bin/env node
// Runs the bundled command (dist/tarmac.mjs), made by `npm install`, `npm run build` or `npm pack`.
try {
  await import("../dist/tarmac.mjs");
} catch (error) {
  if (error?.code !== "ERR_MODULE_NOT_FOUND" || !String(error.message).includes("tarmac.mjs")) throw error;
  process.stderr.write("tarmac is not built yet: run `npm run build` at the repository root.\n");
  process.exit(70);
}
