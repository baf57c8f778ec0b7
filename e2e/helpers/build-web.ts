import { execSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));

/** Builds the web app once per run unless a build is already there (CI builds it in its own step). */
export default function setup() {
  if (!existsSync(`${root}/apps/web/dist/index.html`) || process.env.E2E_REBUILD === "1") {
    execSync("npm run build -w apps/web", { cwd: root, stdio: "inherit" });
  }
}
