import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { VitePWA } from "vite-plugin-pwa";
import { appIcons } from "./pwa/app-icons.ts";
import { appManifest } from "./pwa/app-manifest.ts";

// The API server listens on port 3000 in development; /media is served from public/.
export default defineConfig({
  plugins: [
    react(),
    appIcons(),
    // The service worker keeps the name the spec gives it (ngsw-worker.js); the page registers
    // it itself once the app has rendered (src/pwa/), so no registration script is injected.
    VitePWA({
      strategies: "injectManifest",
      srcDir: "src/sw",
      filename: "ngsw-worker.ts",
      registerType: "prompt",
      injectRegister: false,
      manifest: appManifest,
      injectManifest: {
        globPatterns: ["**/*.{js,css,html,svg,png,webmanifest}", "media/i18n/*.json"],
        globIgnores: ["**/*.map", "ngsw-worker.js"],
        // The largest chunk (Mantine and React together) is above Workbox's 2 MiB default.
        maximumFileSizeToCacheInBytes: 5 * 1024 * 1024,
      },
      devOptions: { enabled: false },
    }),
  ],
  server: {
    proxy: {
      "/api": { target: "http://localhost:3000", changeOrigin: false },
    },
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    sourcemap: true,
  },
});
