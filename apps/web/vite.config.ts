import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// The API server listens on port 3000 in development; /media is served from public/.
export default defineConfig({
  plugins: [react()],
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
