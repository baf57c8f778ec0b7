import type { Icon } from "../types.ts";
import {
  DrawableReader,
  filesOf,
  type IconContext,
  type Layer,
  largestBitmap,
  layerMarkup,
} from "./drawable.ts";
import { findAttribute } from "./manifest-fields.ts";
import { renderSvg } from "./render.ts";
import type { ManifestElement, ResValue } from "./values.ts";

export type { IconContext } from "./drawable.ts";

const drawableAttr = 0x01010199;

/**
 * Adaptive icons are drawn as a launcher shows them: both 108 dp layers, cropped to the 72 dp
 * that a launcher's mask fits in, at xxxhdpi (4 px per dp), as a plain square: the web app
 * rounds every icon's corners itself, so a mask here would only make Android icons smaller.
 */
export const adaptiveIconSize = 288;
/** A vector icon that is not adaptive: its own size in dp at xxxhdpi, at most this many pixels a side. */
const maxVectorIconSize = 512;

function svgDocument(reader: DrawableReader, width: number, height: number, viewBox: string, body: string) {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="${viewBox}"><defs>${reader.defs.parts.join("")}</defs>${body}</svg>`;
}

/** An <adaptive-icon>'s layer: its drawable attribute, or the drawable element written inside it. */
async function adaptiveLayer(
  reader: DrawableReader,
  root: ManifestElement,
  name: string,
): Promise<Layer | null> {
  const element = root.children.find((c) => c.name === name);
  if (!element) return null;
  const value = findAttribute(element, drawableAttr, "drawable")?.value;
  if (value) return reader.layer(value);
  const inline = element.children[0];
  return inline ? reader.elementLayer(inline, 1) : null;
}

async function composeAdaptive(reader: DrawableReader, root: ManifestElement): Promise<Icon | null> {
  const background = await adaptiveLayer(reader, root, "background");
  const foreground = await adaptiveLayer(reader, root, "foreground");
  if (!background && !foreground) return null;
  const body = [background, foreground]
    .map((layer) => (layer ? layerMarkup(layer, 0, 0, 108, 108) : ""))
    .join("");
  const size = adaptiveIconSize;
  const icon = renderSvg(svgDocument(reader, size, size, "18 18 72 72", body));
  if (icon) return icon;
  // The renderer refused the picture: the foreground bitmap alone is still the app's mark.
  return foreground?.kind === "bitmap" ? foreground.icon : null;
}

/** A drawable that is not adaptive (a vector, an inset, a bitmap wrapper) drawn at its own size. */
function drawAlone(reader: DrawableReader, layer: Layer): Icon | null {
  if (layer.kind === "bitmap") return layer.icon;
  if (layer.kind !== "vector") return null;
  const { width, height, viewportWidth, viewportHeight } = layer.image;
  const scale = Math.min(4, maxVectorIconSize / Math.max(width || 48, height || 48));
  const w = Math.max(1, Math.round((width || 48) * scale));
  const h = Math.max(1, Math.round((height || (48 * viewportHeight) / viewportWidth) * scale));
  return renderSvg(svgDocument(reader, w, h, `0 0 ${w} ${h}`, layerMarkup(layer, 0, 0, w, h)));
}

/**
 * The launcher icon as a PNG. The sharpest PNG or WebP among the icon resource's configurations
 * comes first (the legacy bitmaps most apps still ship beside an adaptive icon); then an adaptive
 * icon, composed from its background and foreground (colors, bitmaps, vector drawables, insets);
 * then any other XML drawable the icon names, such as a lone vector.
 */
export async function resolveIcon(value: ResValue | null, context: IconContext): Promise<Icon | null> {
  const files = filesOf(value, context.table);
  const direct = await largestBitmap(files, context);
  if (direct) return direct;
  for (const file of files.filter((f) => f.path.endsWith(".xml"))) {
    const reader = new DrawableReader(context);
    const root = await reader.readXml(file.path);
    if (!root) continue;
    if (root.name === "adaptive-icon") {
      const icon = await composeAdaptive(reader, root);
      if (icon) return icon;
      continue;
    }
    const layer = await reader.elementLayer(root, 1);
    const icon = layer && drawAlone(reader, layer);
    if (icon) return icon;
  }
  return null;
}
