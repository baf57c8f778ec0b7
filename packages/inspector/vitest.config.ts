import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "@tarmac/inspector",
    // The CLI tests run the built command, as users do: build it from the current sources first.
    globalSetup: ["./test/build-cli.ts"],
  },
});
