import { message, messages, readFields } from "../protobuf.ts";
import { uint32 } from "./res-value.ts";

/** What BundleConfig.pb (android.bundle.BundleConfig) says about the APKs built from the bundle. */
export interface BundleConfig {
  uncompressedGlobs: RegExp[];
  uncompressNativeLibraries: boolean;
  /** Alignment of uncompressed native libraries: the page size they are mapped with. */
  pageAlignment: number;
  uncompressDexFiles: boolean;
  /** The lowest SDK whose devices get uncompressed dex (Q, or S with SDK_31). */
  uncompressedDexMinSdk: number;
}

/** UncompressNativeLibraries.PageAlignment: 4K, 16K, 64K; unspecified means 16 KiB, what Android 15+ devices need. */
const pageSizes = [16384, 4096, 16384, 65536];

/**
 * A glob as java.nio's PathMatcher reads it (bundletool matches uncompressed_glob with it):
 * `*` and `?` stay within a path segment, `**` crosses segments, `{a,b}` and `[...]` are groups.
 */
export function globToRegExp(glob: string): RegExp {
  let out = "";
  let inGroup = false;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (c === "*") {
      if (glob[i + 1] === "*") {
        out += ".*";
        i++;
      } else out += "[^/]*";
    } else if (c === "?") out += "[^/]";
    else if (c === "{") {
      out += "(?:";
      inGroup = true;
    } else if (c === "}" && inGroup) {
      out += ")";
      inGroup = false;
    } else if (c === "," && inGroup) out += "|";
    else if (c === "[") {
      const end = glob.indexOf("]", i + 1);
      if (end < 0) out += "\\[";
      else {
        const body = glob
          .slice(i + 1, end)
          .replace(/^!/, "^")
          .replaceAll("\\", "\\\\");
        out += `[${body}]`;
        i = end;
      }
    } else if (c === "\\" && i + 1 < glob.length) out += `\\${glob[++i]}`;
    else out += c.replace(/[.+^$()|\]\\]/g, "\\$&");
  }
  return new RegExp(`^${out}$`);
}

export function readBundleConfig(data: Buffer | null): BundleConfig {
  const config = readFields(data ?? Buffer.alloc(0));
  const optimizations = readFields(message(config, 2) ?? Buffer.alloc(0));
  const nativeLibraries = readFields(message(optimizations, 2) ?? Buffer.alloc(0));
  const dex = readFields(message(optimizations, 3) ?? Buffer.alloc(0));
  const compression = readFields(message(config, 3) ?? Buffer.alloc(0));
  return {
    uncompressedGlobs: messages(compression, 1).map((glob) => globToRegExp(glob.toString("utf8"))),
    uncompressNativeLibraries: uncompressNativeLibrariesEnabled(nativeLibraries),
    pageAlignment: pageSizes[uint32(nativeLibraries, 2) ?? 0] ?? 16384,
    uncompressDexFiles: uint32(dex, 1) === 1,
    uncompressedDexMinSdk: uint32(dex, 2) === 1 ? 31 : 29,
  };
}

function uncompressNativeLibrariesEnabled(fields: ReturnType<typeof readFields>): boolean {
  return uint32(fields, 1) === 1;
}

/** Extensions aapt2 and bundletool never compress: the data is compressed already. */
const alreadyCompressed = new Set(
  "jpg jpeg png webp gif wav mp2 mp3 ogg aac mpg mpeg mid midi smf jet rtttl imy xmf mp4 m4a m4v 3gp 3gpp 3g2 3gpp2 amr awb wma wmv webm mkv".split(
    " ",
  ),
);

export interface Placement {
  compress: boolean;
  align: number;
}

/** How an APK path is stored: resources.arsc, matched globs and media stored and 4-byte aligned; native libraries by the rules above. */
export function placement(
  path: string,
  config: BundleConfig,
  rules: { nativeLibrariesStored: boolean; dexStored: boolean },
): Placement {
  if (path.startsWith("lib/") && path.endsWith(".so")) {
    if (rules.nativeLibrariesStored) return { compress: false, align: config.pageAlignment };
    if (config.uncompressedGlobs.some((glob) => glob.test(path)))
      return { compress: false, align: config.pageAlignment };
    return { compress: true, align: 4 };
  }
  const stored =
    path === "resources.arsc" ||
    (rules.dexStored && /^classes\d*\.dex$/.test(path)) ||
    config.uncompressedGlobs.some((glob) => glob.test(path)) ||
    alreadyCompressed.has(path.slice(path.lastIndexOf(".") + 1).toLowerCase());
  return { compress: !stored, align: 4 };
}
