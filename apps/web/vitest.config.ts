import react from "@vitejs/plugin-react";
import { defineProject } from "vitest/config";

export default defineProject({
  plugins: [react()],
  resolve: {
    // jsdom stands in for a browser: tus-js-client's browser build (its "browser" field), not Node's.
    alias: [{ find: /^tus-js-client$/, replacement: "tus-js-client/lib.esm/browser/index.js" }],
  },
  test: {
    name: "web",
    environment: "jsdom",
    include: ["src/**/*.test.{ts,tsx}"],
    setupFiles: ["./src/test/setup.ts"],
    // Typing through user-event in jsdom is slow on a busy 2-core machine; this bounds a hang, not speed.
    testTimeout: 30_000,
  },
});
