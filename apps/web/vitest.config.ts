import react from "@vitejs/plugin-react";
import { defineProject } from "vitest/config";

export default defineProject({
  plugins: [react()],
  test: {
    name: "web",
    environment: "jsdom",
    include: ["src/**/*.test.{ts,tsx}"],
    setupFiles: ["./src/test/setup.ts"],
    // Typing through user-event in jsdom is slow on a busy 2-core machine; this bounds a hang, not speed.
    testTimeout: 30_000,
  },
});
