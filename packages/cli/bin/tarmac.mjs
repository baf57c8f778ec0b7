#!/usr/bin/env node
// Runs the bundled command (dist/tarmac.mjs), made by `npm install`, `npm run build` or `npm pack`.
try {
  await import("../dist/tarmac.mjs");
} catch (error) {
  // Only the bundle itself missing means "not built": a package the bundle imports that is
  // missing (an install without its dependencies) must say which one.
  const bundleMissing = /Cannot find module '[^']*dist[\\/]tarmac\.mjs'/.test(String(error?.message));
  if (error?.code !== "ERR_MODULE_NOT_FOUND" || !bundleMissing) throw error;
  process.stderr.write("tarmac is not built yet: run `npm run build` at the repository root.\n");
  process.exit(70);
}
