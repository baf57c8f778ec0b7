// The action: runs `tarmac upload --json` with the inputs GitHub passes as INPUT_* variables
// (upper case, hyphens kept) and appends the outputs to the file named by GITHUB_OUTPUT.
import { spawn } from "node:child_process";
import { appendFileSync, existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const input = (name) => (process.env[`INPUT_${name.toUpperCase()}`] ?? "").trim();
const yes = (name) => ["true", "yes", "1", "on"].includes(input(name).toLowerCase());

for (const name of ["file", "app-key", "api-key", "url"]) {
  if (!input(name)) {
    process.stderr.write(`tarmac action: the input "${name}" is required\n`);
    process.exit(64);
  }
}
// The key must never reach a log, also when a step echoes its environment.
process.stdout.write(`::add-mask::${input("api-key")}\n`);

/** The CLI of this checkout when it is built (tests, a repository using its own action), else npm's. */
function command() {
  const local = fileURLToPath(new URL("../../packages/cli/bin/tarmac.mjs", import.meta.url));
  const built = fileURLToPath(new URL("../../packages/cli/dist/tarmac.mjs", import.meta.url));
  if (process.env.TARMAC_CLI) return [process.execPath, [process.env.TARMAC_CLI]];
  if (existsSync(built)) return [process.execPath, [local]];
  return ["npx", ["--yes", `@tarmac/cli@${input("cli-version") || "latest"}`]];
}

const args = ["upload", input("file"), "--app", input("app-key"), "--json"];
if (input("notes")) args.push("--notes", input("notes"));
if (yes("ready")) args.push("--ready");
if (yes("wait")) args.push("--wait");

const [program, prefix] = command();
const child = spawn(program, [...prefix, ...args], {
  env: { ...process.env, TARMAC_URL: input("url"), TARMAC_API_KEY: input("api-key") },
  stdio: ["ignore", "pipe", "inherit"],
});
let stdout = "";
child.stdout.on("data", (chunk) => {
  stdout += chunk;
});
child.on("close", (code) => {
  let result;
  try {
    result = JSON.parse(stdout);
  } catch {
    result = undefined;
  }
  if (code === 0 && result?.ok) {
    process.stdout.write(
      `Uploaded version ${result.version.version} (${result.version.build}): ${result.install_url}\n`,
    );
    if (process.env.GITHUB_OUTPUT)
      appendFileSync(
        process.env.GITHUB_OUTPUT,
        `version-id=${result.version.id}\ninstall-url=${result.install_url}\n`,
      );
  } else if (result?.error) {
    process.stdout.write(`::error::${result.error}\n`);
  }
  process.exit(code ?? 70);
});
