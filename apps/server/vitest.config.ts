import { configDefaults, defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "server",
    globalSetup: ["./test/helpers/global-setup.ts"],
    setupFiles: ["./test/helpers/per-file-setup.ts"],
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // Tests that need several processes on one PostgreSQL run in the PostgreSQL pass only
    // (TEST_DATABASE_URL set); the embedded database belongs to a single process.
    exclude: process.env.TEST_DATABASE_URL
      ? configDefaults.exclude
      : [...configDefaults.exclude, "**/*.pg.test.ts"],
    // Test files share each worker's loaded modules instead of importing the whole server again
    // per file (about half the suite's time); each file still opens its own app and database.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
