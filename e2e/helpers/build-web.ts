import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const script = fileURLToPath(new URL("../../scripts/build-web-if-missing.mjs", import.meta.url));

/** Builds the web app once per run unless a build is already there (E2E_REBUILD=1 forces it). */
export default function setup() {
  const args = process.env.E2E_REBUILD === "1" ? [script, "--force"] : [script];
  execFileSync(process.execPath, args, { stdio: "inherit" });
}
