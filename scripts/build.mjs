// Builds what `npm start`, `tarmac-inspect` and `tarmac` run, so none needs a TypeScript loader:
//   apps/server/dist/   the server and its admin command, bundled by esbuild;
//   packages/inspector/dist/cli.js   the inspector's command, bundled with everything it uses but
//                                    its image codecs (native and WebAssembly files stay in node_modules);
//   packages/cli/dist/tarmac.mjs     the `tarmac` command in one file, the inspector and tus-js-client
//                                    included (its package installs without the workspace), codecs aside;
//   apps/web/dist/      the web app, once (`--web` rebuilds it).
// The server bundle holds our own code and the workspace packages; npm dependencies stay in
// node_modules (native modules, WebAssembly and files they load beside themselves stay intact).
// Runs on `npm install` (prepare) and before `npm start`; it takes about a second.
import { execSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
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

/**
 * One file, so `tarmac --version` reads one module. Dynamic imports of bundled modules stay lazy
 * (esbuild runs a module's body only when its import() is reached): upload and inspect pay for
 * tus-js-client and the inspector, the other commands do not.
 */
export async function buildCli() {
  const { version } = JSON.parse(readFileSync(at("packages/cli/package.json"), "utf8"));
  await build({
    ...common,
    entryPoints: [at("packages/cli/src/main.ts")],
    outfile: at("packages/cli/dist/tarmac.mjs"),
    sourcemap: false,
    minifySyntax: true,
    external: inspectorCodecs,
    define: { __TARMAC_CLI_VERSION__: JSON.stringify(version) },
    // tus-js-client's Node build is CommonJS and calls require() for Node's own modules.
    banner: {
      js: 'import { createRequire as __cr } from "node:module"; const require = __cr(import.meta.url);',
    },
  });
}

function buildWebIfMissing(force) {
  const hasWebApp = existsSync(at("apps/web/vite.config.ts"));
  const built = existsSync(at("apps/web/dist/index.html"));
  if (hasWebApp && (force || !built)) execSync("npm run build -w apps/web", { cwd: root, stdio: "inherit" });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  if (args.includes("--cli")) {
    await buildCli();
    process.exit(0);
  }
  await Promise.all([buildServer(), buildInspectorCli(), buildCli()]);
  if (!args.includes("--no-web")) buildWebIfMissing(args.includes("--web"));
}
