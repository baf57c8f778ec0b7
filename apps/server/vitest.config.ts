import { configDefaults, defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "server",
    globalSetup: ["./test/helpers/global-setup.ts"],
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // Tests that need several processes on one PostgreSQL run in the PostgreSQL pass only
    // (TEST_DATABASE_URL set); the embedded database belongs to a single process.
    exclude: process.env.TEST_DATABASE_URL
      ? configDefaults.exclude
      : [...configDefaults.exclude, "**/*.pg.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
