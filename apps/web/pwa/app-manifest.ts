import type { ManifestOptions } from "vite-plugin-pwa";

/**
 * The web app manifest: installed on a phone, Tarmac opens on the mobile area, where the builds
 * its user may install are listed.
 */
export const appManifest: Partial<ManifestOptions> = {
  id: "/",
  name: "Tarmac",
  short_name: "Tarmac",
  description: "Install and test the builds your team distributes with Tarmac.",
  start_url: "/dashboard/m",
  scope: "/",
  display: "standalone",
  orientation: "any",
  background_color: "#ffffff",
  theme_color: "#1c7ed6",
  lang: "en",
  categories: ["developer", "productivity", "utilities"],
  icons: [
    { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
    { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
    { src: "/icons/icon-maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
  ],
};
