// Builds what `npm start` and `tarmac-inspect` run, so neither needs a TypeScript loader:
//   apps/server/dist/   the server and its admin command, bundled by esbuild;
//   packages/inspector/dist/cli.js   the inspector's command, bundled with everything it uses but
//                                    its image codecs (native and WebAssembly files stay in node_modules);
//   apps/web/dist/      the web app, once (`--web` rebuilds it).
// The server bundle holds our own code and the workspace packages; npm dependencies stay in
// node_modules (native modules, WebAssembly and files they load beside themselves stay intact).
// Runs on `npm install` (prepare) and before `npm start`; it takes about a second.
import { execSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
const at = (relative) => `${root}${relative}`;

/** Bare imports are npm packages and stay external, except our own workspace packages. */
const npmPackagesExternal = {
  name: "npm-packages-external",
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith("@tarmac/") ? undefined : { path: args.path, external: true },
    );
  },
};

const common = {
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20.19",
  sourcemap: "linked",
  logLevel: "warning",
  legalComments: "none",
};

export async function buildServer() {
  await build({
    ...common,
    entryPoints: {
      main: at("apps/server/src/main.ts"),
      "issue-admin-token": at("apps/server/src/cli/issue-admin-token.ts"),
      backup: at("apps/server/src/cli/backup.ts"),
    },
    outdir: at("apps/server/dist"),
    // The mail layout is React (platform/mail/layout.tsx); react itself stays in node_modules.
    jsx: "automatic",
    splitting: true,
    chunkNames: "chunks/[name]-[hash]",
    plugins: [npmPackagesExternal],
  });
}

/**
 * The inspector's image codecs load files beside their own code (a native resvg module, libwebp's
 * .wasm): the CLI takes them from node_modules, and bundles everything else.
 */
export const inspectorCodecs = ["@resvg/resvg-js", "@jsquash/webp", "@jsquash/webp/*"];

export async function buildInspectorCli() {
  await build({
    ...common,
    entryPoints: { cli: at("packages/inspector/src/cli.ts") },
    outdir: at("packages/inspector/dist"),
    external: inspectorCodecs,
  });
}

function buildWebIfMissing(force) {
  const hasWebApp = existsSync(at("apps/web/vite.config.ts"));
  const built = existsSync(at("apps/web/dist/index.html"));
  if (hasWebApp && (force || !built)) execSync("npm run build -w apps/web", { cwd: root, stdio: "inherit" });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  await Promise.all([buildServer(), buildInspectorCli()]);
  if (!args.includes("--no-web")) buildWebIfMissing(args.includes("--web"));
}
