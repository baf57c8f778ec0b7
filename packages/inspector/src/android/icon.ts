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

const drawableAttr = 0x01010199;

export interface IconContext {
  table: ResourceTable | null;
  /** Reads a file of the module by its resource path ("res/mipmap-xhdpi-v4/ic_launcher.png"), or null. */
  readFile(path: string, maxBytes: number): Promise<Buffer | null>;
  /** Parses a compiled XML resource of the module (binary XML in APKs, protobuf XmlNode in bundles). */
  parseXml(data: Buffer): ManifestElement;
}

interface Candidate {
  path: string;
  density: number;
}

/** Density order for picking the sharpest bitmap; the density-less default counts as mdpi. */
function rank(density: number): number {
  if (density === densityNone) return 1;
  if (density === 0) return 160;
  if (density === densityAny) return 0;
  return density;
}

function filesOf(value: ResValue | null, table: ResourceTable | null): Candidate[] {
  if (!value) return [];
  if (value.type === "string") return [{ path: value.text, density: 0 }];
  if (value.type !== "reference" || !table) return [];
  const files: Candidate[] = [];
  for (const config of table.lookup(value.id)) {
    const resolved = resolveValue(config.value, table);
    if (resolved?.type === "string") files.push({ path: resolved.text, density: config.density });
  }
  return files;
}

async function largestPng(files: Candidate[], context: IconContext): Promise<Icon | null> {
  const pngs = files
    .filter((f) => f.path.toLowerCase().endsWith(".png"))
    .sort((a, b) => rank(b.density) - rank(a.density));
  for (const file of pngs) {
    const data = await context.readFile(file.path, limits.maxIconBytes);
    const size = data && readPngSize(data);
    if (data && size) return { png: data, ...size };
  }
  return null;
}

/**
 * The launcher icon as a PNG: the largest-density PNG among the icon resource's configurations
 * (the fallbacks of an adaptive icon), else an adaptive icon's foreground when that is a PNG.
 */
export async function resolveIcon(value: ResValue | null, context: IconContext): Promise<Icon | null> {
  const files = filesOf(value, context.table);
  const direct = await largestPng(files, context);
  if (direct) return direct;
  for (const file of files.filter((f) => f.path.endsWith(".xml"))) {
    const data = await context.readFile(file.path, limits.maxEntryBytes);
    if (!data) continue;
    const root = context.parseXml(data);
    if (root.name !== "adaptive-icon") continue;
    const foreground = root.children.find((c) => c.name === "foreground");
    const drawable = foreground && findAttribute(foreground, drawableAttr, "drawable")?.value;
    const icon = await largestPng(filesOf(drawable ?? null, context.table), context);
    if (icon) return icon;
  }
  return null;
}
