import { limits } from "../limits.ts";
import type { Icon } from "../types.ts";
import { findAttribute, resolveValue } from "./manifest-fields.ts";
import { readPngSize } from "./png.ts";
import {
  densityAny,
  densityNone,
  type ManifestElement,
  type ResourceTable,
  type ResValue,
} from "./values.ts";
import {
  type Paint,
  SvgDefs,
  svgNumber,
  type VectorBudget,
  type VectorImage,
  vectorToSvg,
} from "./vector.ts";
import { webpToIcon } from "./webp.ts";

export interface IconContext {
  table: ResourceTable | null;
  /** Reads a file of the module by its resource path ("res/mipmap-xhdpi-v4/ic_launcher.png"), or null. */
  readFile(path: string, maxBytes: number): Promise<Buffer | null>;
  /** Parses a compiled XML resource of the module (binary XML in APKs, protobuf XmlNode in bundles). */
  parseXml(data: Buffer): ManifestElement;
}

/** What a drawable resource draws, in the forms the composer knows. */
export type Layer =
  | { kind: "color"; argb: number }
  | { kind: "bitmap"; icon: Icon }
  | { kind: "vector"; image: VectorImage }
  /** Another layer drawn inside the bounds less these fractions of them (left, top, right, bottom). */
  | { kind: "inset"; layer: Layer; insets: [number, number, number, number] };

interface Candidate {
  path: string;
  density: number;
}

const attr = {
  drawable: 0x01010199,
  src: 0x01010119,
  color: 0x010101a5,
  alpha: 0x0101031f,
  inset: 0x010104b5,
  insetLeft: 0x010101b7,
  insetTop: 0x010101b9,
  insetRight: 0x010101b8,
  insetBottom: 0x010101ba,
  type: 0x010101a1,
  startX: 0x01010510,
  startY: 0x01010511,
  endX: 0x01010512,
  endY: 0x01010513,
  centerX: 0x010101a2,
  centerY: 0x010101a3,
  gradientRadius: 0x010101a4,
  startColor: 0x0101019d,
  centerColor: 0x0101020b,
  endColor: 0x0101019e,
  offset: 0x01010514,
} as const;

/** android:color/transparent, white and black: the framework colors icons name most. */
const frameworkColors = new Map([
  [0x0106000d, 0x00000000],
  [0x0106000b, 0xffffffff],
  [0x0106000c, 0xff000000],
]);

/** Density order for picking the sharpest bitmap; the density-less default counts as mdpi. */
function rank(density: number): number {
  if (density === densityNone) return 1;
  if (density === 0) return 160;
  if (density === densityAny) return 0;
  return density;
}

/** The files a drawable value names, one per configuration, sharpest first. */
export function filesOf(value: ResValue | null | undefined, table: ResourceTable | null): Candidate[] {
  if (!value) return [];
  if (value.type === "string") return [{ path: value.text, density: 0 }];
  if (value.type !== "reference" || !table) return [];
  const files: Candidate[] = [];
  for (const config of table.lookup(value.id)) {
    const resolved = resolveValue(config.value, table);
    if (resolved?.type === "string") files.push({ path: resolved.text, density: config.density });
  }
  return files.sort((a, b) => rank(b.density) - rank(a.density));
}

const bitmapExtensions = /\.(png|webp)$/i;

/** A PNG as it is, or a WebP converted to PNG; null when the file is neither or is over the bounds. */
async function readBitmap(file: Candidate, context: IconContext): Promise<Icon | null> {
  const data = await context.readFile(file.path, limits.maxIconBytes);
  if (!data) return null;
  const size = readPngSize(data);
  if (size) return { png: data, ...size };
  return webpToIcon(data);
}

/** The highest-density bitmap (PNG or WebP) among the files that reads. */
export async function largestBitmap(files: Candidate[], context: IconContext): Promise<Icon | null> {
  for (const file of files.filter((f) => bitmapExtensions.test(f.path))) {
    const icon = await readBitmap(file, context);
    if (icon) return icon;
  }
  return null;
}

export function argbColor(argb: number): Paint {
  const rgb = (argb & 0xffffff).toString(16).padStart(6, "0");
  return { value: `#${rgb}`, opacity: ((argb >>> 24) & 0xff) / 255 };
}

function numberAttr(element: ManifestElement, id: number, name: string, fallback: number): number {
  const value = findAttribute(element, id, name)?.value;
  const number = value?.type === "float" || value?.type === "int" ? value.value : Number.NaN;
  return Number.isFinite(number) ? number : fallback;
}

/**
 * Reads drawables for one icon: resource references, bitmaps, vectors, insets and colors, with
 * one allowance for vector work and a bound on how deep references may lead.
 */
export class DrawableReader {
  readonly defs = new SvgDefs();
  private readonly budget: VectorBudget = {
    pathBytes: limits.vectorMaxPathBytes,
    elements: limits.vectorMaxElements,
  };

  constructor(private readonly context: IconContext) {}

  /** A compiled XML file of the module, or null when it is missing. */
  async readXml(path: string): Promise<ManifestElement | null> {
    const data = await this.context.readFile(path, limits.maxIconBytes);
    return data ? this.context.parseXml(data) : null;
  }

  /** The color a value stands for: a literal, a framework color or a color resource. */
  private colorOf(value: ResValue | null | undefined): number | null {
    if (!value) return null;
    if (value.type === "reference" && frameworkColors.has(value.id))
      return frameworkColors.get(value.id) ?? null;
    const resolved = resolveValue(value, this.context.table);
    if (resolved?.type === "color") return resolved.argb;
    if (resolved?.type === "string") {
      const hex = /^#([0-9a-f]{3,8})$/i.exec(resolved.text)?.[1];
      if (!hex || ![3, 4, 6, 8].includes(hex.length)) return null;
      const full = hex.length <= 4 ? [...hex].map((c) => c + c).join("") : hex;
      return Number.parseInt(full.length === 6 ? `ff${full}` : full, 16) >>> 0;
    }
    return null;
  }

  /** A fill or stroke: a color, a color state list (its default color) or a gradient. */
  readonly paint = async (value: ResValue | undefined, depth = 0): Promise<Paint | null> => {
    const color = this.colorOf(value);
    if (color !== null) return argbColor(color);
    if (depth >= limits.drawableMaxDepth) return null;
    for (const file of filesOf(value, this.context.table).filter((f) => f.path.endsWith(".xml"))) {
      const root = await this.readXml(file.path);
      if (root?.name === "selector") {
        const items = root.children.filter((c) => c.name === "item");
        const plain = items.find((item) => item.attributes.every((a) => !a.name.startsWith("state_")));
        const item = plain ?? items.at(-1);
        const paint = item && (await this.paint(findAttribute(item, attr.color, "color")?.value, depth + 1));
        if (paint)
          paint.opacity *= Math.min(1, Math.max(0, item ? numberAttr(item, attr.alpha, "alpha", 1) : 1));
        return paint ?? null;
      }
      if (root?.name === "gradient") return this.gradient(root, depth);
    }
    return null;
  };

  private async gradient(root: ManifestElement, depth: number): Promise<Paint | null> {
    const stops: { offset: number; paint: Paint }[] = [];
    for (const item of root.children.filter((c) => c.name === "item")) {
      const paint = await this.paint(findAttribute(item, attr.color, "color")?.value, depth + 1);
      if (paint) stops.push({ offset: numberAttr(item, attr.offset, "offset", 0), paint });
    }
    if (stops.length === 0) {
      const named = [attr.startColor, attr.centerColor, attr.endColor].map((id, i) => {
        const name = ["startColor", "centerColor", "endColor"][i] as string;
        const color = this.colorOf(findAttribute(root, id, name)?.value);
        return color === null ? null : { offset: i / 2, paint: argbColor(color) };
      });
      stops.push(...named.filter((stop) => stop !== null));
    }
    if (stops.length === 0) return null;
    const n = (id: number, name: string) => svgNumber(numberAttr(root, id, name, 0)) ?? "0";
    const stopMarkup = stops
      .map(
        (s) =>
          `<stop offset="${svgNumber(Math.min(1, Math.max(0, s.offset)))}" stop-color="${s.paint.value}" stop-opacity="${svgNumber(s.paint.opacity)}"/>`,
      )
      .join("");
    const type = findAttribute(root, attr.type, "type")?.value;
    const kind = type?.type === "int" ? type.value : 0;
    if (kind === 0) {
      const id = this.defs.add(
        (gid) =>
          `<linearGradient id="${gid}" gradientUnits="userSpaceOnUse" x1="${n(attr.startX, "startX")}" y1="${n(attr.startY, "startY")}" x2="${n(attr.endX, "endX")}" y2="${n(attr.endY, "endY")}">${stopMarkup}</linearGradient>`,
      );
      return { value: `url(#${id})`, opacity: 1 };
    }
    if (kind === 1) {
      const id = this.defs.add(
        (gid) =>
          `<radialGradient id="${gid}" gradientUnits="userSpaceOnUse" cx="${n(attr.centerX, "centerX")}" cy="${n(attr.centerY, "centerY")}" r="${n(attr.gradientRadius, "gradientRadius")}">${stopMarkup}</radialGradient>`,
      );
      return { value: `url(#${id})`, opacity: 1 };
    }
    return (stops[0] as { paint: Paint }).paint; // a sweep gradient: its first color
  }

  /** The layer a drawable value draws: a color, the sharpest bitmap, or an XML drawable. */
  async layer(value: ResValue | null | undefined, depth = 0): Promise<Layer | null> {
    const color = this.colorOf(value);
    if (color !== null) return { kind: "color", argb: color };
    if (depth >= limits.drawableMaxDepth) return null;
    const files = filesOf(value, this.context.table);
    const bitmap = await largestBitmap(files, this.context);
    if (bitmap) return { kind: "bitmap", icon: bitmap };
    for (const file of files.filter((f) => f.path.endsWith(".xml"))) {
      const root = await this.readXml(file.path);
      const layer = root && (await this.elementLayer(root, depth + 1));
      if (layer) return layer;
    }
    return null;
  }

  /** The layer an XML drawable element draws: <vector>, <inset>, <bitmap>, <color> or a solid <shape>. */
  async elementLayer(element: ManifestElement, depth: number): Promise<Layer | null> {
    const drawableOf = async (id: number, name: string) => {
      const value = findAttribute(element, id, name)?.value;
      if (value) return this.layer(value, depth);
      const child = element.children[0];
      return child && depth < limits.drawableMaxDepth ? this.elementLayer(child, depth + 1) : null;
    };
    switch (element.name) {
      case "vector": {
        const image = await vectorToSvg(element, this.paint, this.defs, this.budget);
        return image && { kind: "vector", image };
      }
      case "bitmap":
        return drawableOf(attr.src, "src");
      case "inset": {
        const layer = await drawableOf(attr.drawable, "drawable");
        if (!layer) return null;
        const all = insetFraction(findAttribute(element, attr.inset, "inset")?.value) ?? 0;
        const side = (id: number, name: string) =>
          insetFraction(findAttribute(element, id, name)?.value) ?? all;
        const insets: [number, number, number, number] = [
          side(attr.insetLeft, "insetLeft"),
          side(attr.insetTop, "insetTop"),
          side(attr.insetRight, "insetRight"),
          side(attr.insetBottom, "insetBottom"),
        ];
        return { kind: "inset", layer, insets };
      }
      case "color": {
        const color = this.colorOf(findAttribute(element, attr.color, "color")?.value);
        return color === null ? null : { kind: "color", argb: color };
      }
      case "shape": {
        const solid = element.children.find((c) => c.name === "solid");
        const color = solid && this.colorOf(findAttribute(solid, attr.color, "color")?.value);
        return color === null || color === undefined ? null : { kind: "color", argb: color };
      }
      default:
        return null;
    }
  }
}

/** An inset as a fraction of the bounds: a fraction as given, a dp size of the 108 dp adaptive layer. */
function insetFraction(value: ResValue | undefined): number | null {
  if (value?.type === "fraction") return Math.min(0.49, Math.max(0, value.value));
  if (value?.type === "dimension" && value.unit === 1) return Math.min(0.49, Math.max(0, value.value / 108));
  return null;
}

/** SVG markup drawing a layer into the box (x, y, size) of the document's user space. */
export function layerMarkup(layer: Layer, x: number, y: number, width: number, height: number): string {
  const box = `x="${svgNumber(x)}" y="${svgNumber(y)}" width="${svgNumber(width)}" height="${svgNumber(height)}"`;
  switch (layer.kind) {
    case "color": {
      const paint = argbColor(layer.argb);
      return `<rect ${box} fill="${paint.value}" fill-opacity="${svgNumber(paint.opacity)}"/>`;
    }
    case "bitmap":
      return `<image ${box} preserveAspectRatio="none" href="data:image/png;base64,${layer.icon.png.toString("base64")}"/>`;
    case "vector": {
      const { viewportWidth, viewportHeight, body } = layer.image;
      const scale = `scale(${svgNumber(width / viewportWidth)} ${svgNumber(height / viewportHeight)})`;
      return `<g transform="translate(${svgNumber(x)} ${svgNumber(y)}) ${scale}">${body}</g>`;
    }
    case "inset": {
      const [left, top, right, bottom] = layer.insets;
      const innerWidth = width * (1 - left - right);
      const innerHeight = height * (1 - top - bottom);
      return layerMarkup(layer.layer, x + width * left, y + height * top, innerWidth, innerHeight);
    }
  }
}
