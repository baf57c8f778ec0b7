import { Resvg } from "@resvg/resvg-js";
import type { Icon } from "../types.ts";

/**
 * Rasterizes SVG markup the inspector wrote itself (never a file's own SVG) with resvg, a
 * memory-safe renderer: no fonts are loaded and the markup holds only data: images.
 */
export function renderSvg(svg: string): Icon | null {
  try {
    const image = new Resvg(svg, { font: { loadSystemFonts: false }, fitTo: { mode: "original" } }).render();
    return { png: image.asPng(), width: image.width, height: image.height };
  } catch {
    return null;
  }
}
