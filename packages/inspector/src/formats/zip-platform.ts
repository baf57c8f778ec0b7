import type { AppType } from "../types.ts";
import type { ZipEntry } from "../zip/types.ts";

/** <X>.app/Contents/Info.plist at the top level or one folder down (Finder's "Compress", most CI scripts). */
export const appInfoPlist = /^(?:[^/]+\/)?[^/]+\.app\/Contents\/Info\.plist$/;

/** What a Windows build zip carries: a program, an installer, or a package's manifest. */
const windowsProgram = /(^|\/)(?:[^/]+\.(?:exe|msi|msix|msixbundle|appx|appxbundle)|AppxManifest\.xml)$/i;

/**
 * The platforms whose builds the archive holds, read from entry names only (no entry is
 * opened). Finder's "__MACOSX/" resource forks say nothing about the contents and are skipped.
 */
export function zipPlatforms(entries: readonly ZipEntry[]): Set<AppType> {
  const found = new Set<AppType>();
  for (const entry of entries) {
    if (entry.isDirectory || entry.name.startsWith("__MACOSX/")) continue;
    if (appInfoPlist.test(entry.name)) found.add(3);
    else if (windowsProgram.test(entry.name)) found.add(2);
    if (found.size === 2) break;
  }
  return found;
}
