import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const script = fileURLToPath(new URL("../../scripts/build.mjs", import.meta.url));

/** Builds the server, and the web app unless a build is already there (E2E_REBUILD=1 forces it). */
export default function setup() {
  const args = process.env.E2E_REBUILD === "1" ? [script, "--web"] : [script];
  execFileSync(process.execPath, args, { stdio: "inherit" });
}
