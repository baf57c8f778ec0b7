import { parsePlistDict } from "../../plist/index.ts";
import { type PlistDict, stringOf } from "../../plist/types.ts";
import type { ZipArchive, ZipEntry } from "../../zip/types.ts";
import { ResignError } from "./profiles.ts";

export type BundleKind = "app" | "appex" | "framework";

/** One bundle inside the IPA's app (the app itself, an extension, a framework). */
export interface IpaBundle {
  /** Archive path with a trailing slash: "Payload/Demo.app/Frameworks/Kit.framework/". */
  root: string;
  kind: BundleKind;
  infoPlist: PlistDict;
  /** Whether Info.plist is a binary plist (kept as is unless the bundle id changes). */
  bundleId: string;
  executable: string;
  depth: number;
}

const bundleSuffix: Array<[string, BundleKind]> = [
  [".appex", "appex"],
  [".app", "app"],
  [".framework", "framework"],
];

function kindOf(segment: string): BundleKind | null {
  return bundleSuffix.find(([suffix]) => segment.endsWith(suffix))?.[1] ?? null;
}

/** Every bundle root the archive's paths pass through, inside the one app under Payload/. */
export function findBundleRoots(entries: readonly ZipEntry[]): Map<string, BundleKind> {
  const roots = new Map<string, BundleKind>();
  for (const entry of entries) {
    const segments = entry.name.split("/");
    if (segments[0] !== "Payload" || segments.length < 3) continue;
    const last = entry.isDirectory ? segments.length : segments.length - 1;
    for (let index = 1; index < last; index += 1) {
      const kind = kindOf(segments[index] as string);
      if (index === 1 && kind !== "app") break;
      if (kind) roots.set(`${segments.slice(0, index + 1).join("/")}/`, kind);
    }
  }
  const apps = [...roots.keys()].filter((root) => root.split("/").length === 3);
  if (apps.length !== 1) throw new ResignError("bundle", "The IPA must hold exactly one app under Payload/.");
  return roots;
}

/** Reads each bundle's Info.plist; deepest bundles come first, the order they are signed in. */
export async function readIpaBundles(zip: ZipArchive): Promise<IpaBundle[]> {
  const bundles: IpaBundle[] = [];
  for (const [root, kind] of findBundleRoots(zip.entries)) {
    const entry = zip.find(`${root}Info.plist`);
    if (!entry) throw new ResignError("bundle", `${root} has no Info.plist.`);
    const infoPlist = parsePlistDict(await zip.read(entry), `${root}Info.plist`);
    const bundleId = stringOf(infoPlist.CFBundleIdentifier);
    const executable = stringOf(infoPlist.CFBundleExecutable);
    if (!bundleId || !executable) {
      throw new ResignError("bundle", `${root}Info.plist lacks CFBundleIdentifier or CFBundleExecutable.`);
    }
    if (!zip.find(`${root}${executable}`))
      throw new ResignError("bundle", `${root}${executable} is missing.`);
    bundles.push({ root, kind, infoPlist, bundleId, executable, depth: root.split("/").length });
  }
  return bundles.sort((a, b) => b.depth - a.depth || a.root.localeCompare(b.root));
}

/** The innermost bundle holding an archive path. */
export function ownerOf(bundles: IpaBundle[], name: string): IpaBundle | null {
  let owner: IpaBundle | null = null;
  for (const bundle of bundles) {
    if (name.startsWith(bundle.root) && (!owner || bundle.depth > owner.depth)) owner = bundle;
  }
  return owner;
}

/** New bundle ids: an exact mapping first, else the longest mapped prefix ("com.a" maps "com.a.widget"). */
export function mapBundleId(bundleId: string, mapping: Record<string, string>): string {
  const exact = mapping[bundleId];
  if (exact) return exact;
  const prefix = Object.keys(mapping)
    .filter((old) => bundleId.startsWith(`${old}.`))
    .sort((a, b) => b.length - a.length)[0];
  return prefix ? `${mapping[prefix]}${bundleId.slice(prefix.length)}` : bundleId;
}
