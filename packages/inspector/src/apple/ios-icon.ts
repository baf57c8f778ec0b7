import { InspectError } from "../errors.ts";
import { limits } from "../limits.ts";
import { isDict, type PlistDict, type PlistValue } from "../plist/index.ts";
import type { Icon } from "../types.ts";
import type { ZipArchive, ZipEntry } from "../zip/types.ts";
import { uncrushPng } from "./cgbi.ts";
import { readPngSize } from "./png.ts";

/** Reading every candidate costs one entry each; real apps list a handful. */
const maxCandidates = 32;

function stringsOf(value: PlistValue | undefined): string[] {
  if (typeof value === "string") return [value];
  if (!Array.isArray(value)) return [];
  return value.filter((item): item is string => typeof item === "string");
}

function primaryIcon(icons: PlistValue | undefined, key: "CFBundleIconFiles" | "CFBundleIconName"): string[] {
  if (!isDict(icons)) return [];
  const primary = icons.CFBundlePrimaryIcon;
  if (typeof primary === "string") return key === "CFBundleIconFiles" ? [primary] : [];
  return isDict(primary) ? stringsOf(primary[key]) : [];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

const suffixes = "(@[23]x)?(~(ipad|iphone))?";

/**
 * Patterns for the icon files the Info.plist declares. Xcode lists "AppIcon60x60" and ships
 * "AppIcon60x60@2x.png", "AppIcon60x60@3x.png", "AppIcon76x76@2x~ipad.png" and so on; the legacy
 * keys name files with or without ".png". When only an icon set name is given
 * (CFBundleIconName "AppIcon"), its sized files ("AppIcon60x60@2x.png") are looked for instead.
 */
export function iconFilePatterns(info: PlistDict): RegExp[] {
  const files = [
    ...primaryIcon(info.CFBundleIcons, "CFBundleIconFiles"),
    ...primaryIcon(info["CFBundleIcons~ipad"], "CFBundleIconFiles"),
    ...stringsOf(info.CFBundleIconFiles),
    ...stringsOf(info.CFBundleIconFile),
  ];
  const names = [
    ...new Set(files.map((name) => name.replace(/\.png$/i, "")).filter((name) => name.length > 0)),
  ];
  if (names.length > 0) {
    return names.map((name) => new RegExp(`^${escapeRegExp(name)}${suffixes}(\\.png)?$`, "i"));
  }
  const sets = [
    ...primaryIcon(info.CFBundleIcons, "CFBundleIconName"),
    ...primaryIcon(info["CFBundleIcons~ipad"], "CFBundleIconName"),
  ].filter((name) => name.length > 0);
  return [...new Set(sets)].map(
    (name) => new RegExp(`^${escapeRegExp(name)}\\d+(\\.\\d+)?x\\d+(\\.\\d+)?${suffixes}\\.png$`, "i"),
  );
}

/** Entries directly inside the bundle whose names match one of the patterns. */
export function resolveIconEntries(zip: ZipArchive, bundleDir: string, patterns: RegExp[]): ZipEntry[] {
  if (patterns.length === 0) return [];
  const found: ZipEntry[] = [];
  for (const entry of zip.entries) {
    // Checked in place: slicing every name of a large bundle would allocate thousands of strings.
    if (entry.isDirectory || !entry.name.startsWith(bundleDir)) continue;
    if (entry.name.includes("/", bundleDir.length)) continue;
    const rest = entry.name.slice(bundleDir.length);
    if (patterns.some((pattern) => pattern.test(rest))) found.push(entry);
    if (found.length >= maxCandidates) break;
  }
  return found;
}

/** The largest resolved icon by IHDR pixel size, un-crushed into a standard PNG. */
export async function readLargestIcon(zip: ZipArchive, entries: ZipEntry[]): Promise<Icon | null> {
  let best: Icon | null = null;
  for (const entry of entries) {
    if (entry.uncompressedSize > limits.maxIconBytes) continue;
    let data: Buffer;
    try {
      data = await zip.read(entry, limits.maxIconBytes);
    } catch (error) {
      // One damaged image should not hide the others.
      if (error instanceof InspectError) continue;
      throw error;
    }
    const size = readPngSize(data);
    if (!size) continue;
    if (!best || size.width * size.height > best.width * best.height) best = { png: data, ...size };
  }
  return best ? { ...best, png: uncrushPng(best.png) } : null;
}
