import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "cli",
    // The tests run the built server and the built command as processes, as users do.
    globalSetup: ["./test/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 90_000,
  },
});
