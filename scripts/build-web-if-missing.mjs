// Builds the web app once, so `npm install && npm start` serves it without a separate step.
// `--force` rebuilds even when a build exists (browser tests after web changes).
import { execSync } from "node:child_process";
import { existsSync } from "node:fs";

const root = new URL("..", import.meta.url);
const built = existsSync(new URL("apps/web/dist/index.html", root));
const hasWebApp = existsSync(new URL("apps/web/vite.config.ts", root));
if (hasWebApp && (!built || process.argv.includes("--force"))) {
  execSync("npm run build -w apps/web", { cwd: root, stdio: "inherit" });
}
