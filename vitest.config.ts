import { defineConfig } from "vitest/config";

// One run across the workspaces; browser tests (e2e/) have their own command.
export default defineConfig({
  test: {
    projects: ["packages/*", "apps/*", "deploy"],
    // Forks isolate PGlite's WebAssembly heaps; two match the machine's two cores.
    pool: "forks",
    maxWorkers: 2,
  },
});
