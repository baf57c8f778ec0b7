import { readFileSync } from "node:fs";
import { Resvg } from "@resvg/resvg-js";
import type { Plugin } from "vite";

const source = (name: string) => readFileSync(new URL(`./${name}`, import.meta.url), "utf8");

/** PNG at `size` pixels square from an SVG source. */
function renderPng(svg: string, size: number): Buffer {
  return Buffer.from(new Resvg(svg, { fitTo: { mode: "width", value: size } }).render().asPng());
}

/**
 * Renders the install icons (the manifest's PNGs and the Apple touch icon) from the SVG sources
 * beside this file at build time, so the repository keeps no image binaries.
 */
export function appIcons(): Plugin {
  return {
    name: "tarmac-app-icons",
    apply: "build",
    generateBundle() {
      const plain = source("icon.svg");
      const maskable = source("icon-maskable.svg");
      const icons: [string, string, number][] = [
        ["icons/icon-192.png", plain, 192],
        ["icons/icon-512.png", plain, 512],
        ["icons/icon-maskable-512.png", maskable, 512],
        ["icons/apple-touch-icon.png", maskable, 180],
      ];
      for (const [fileName, svg, size] of icons) {
        this.emitFile({ type: "asset", fileName, source: renderPng(svg, size) });
      }
    },
  };
}
