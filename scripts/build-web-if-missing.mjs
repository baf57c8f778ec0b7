// Builds the web app once, so `npm install && npm start` serves it without a separate step.
import { execSync } from "node:child_process";
import { existsSync } from "node:fs";

const index = new URL("../apps/web/dist/index.html", import.meta.url);
if (!existsSync(index) && existsSync(new URL("../apps/web/vite.config.ts", import.meta.url))) {
  execSync("npm run build -w apps/web", { stdio: "inherit" });
}
