import { defineConfig } from "vitest/config";

// Browser tests: the built web app served by the real server, driven in Debian's Chromium.
export default defineConfig({
  test: {
    include: ["tests/**/*.e2e.ts"],
    globalSetup: ["./helpers/build-web.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    maxWorkers: 2,
  },
});
