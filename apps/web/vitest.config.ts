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
    // Test files share each worker's loaded modules (React, the app's code) instead of importing
    // them again per file; the setup file still cleans the DOM after every test.
    isolate: false,
    // Typing through user-event in jsdom is slow on a busy 2-core machine; this bounds a hang, not speed.
    testTimeout: 30_000,
  },
});
