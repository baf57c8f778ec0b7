import { guardCorrupt } from "../apple/bundle.ts";
import { InspectError } from "../errors.ts";
import type { FormatReader } from "../inspect.ts";
import { buildInfoFromFileName, versionFromFileName } from "../rules.ts";
import type { AppType, BuildInfo } from "../types.ts";
import { openZip } from "../zip/index.ts";
import { readMacZip } from "./macos-zip.ts";
import { windowsZipInfo } from "./windows-zip.ts";
import { zipPlatforms } from "./zip-platform.ts";

/**
 * A .zip is a macOS or a Windows build, whichever its contents show (an .app bundle; an .exe,
 * .msi, package or AppxManifest.xml). Only when they cannot tell (both, or neither) does the
 * current app type decide, Windows without one; an archive holding nothing recognisable is a
 * build only if its name carries the version (x.y.z), otherwise nothing about it could be read.
 */
export const inspectZip: FormatReader = (source, options, fileType) =>
  guardCorrupt(async (): Promise<BuildInfo> => {
    const zip = await openZip(source);
    if (!zip.entries.some((entry) => !entry.isDirectory)) {
      throw new InspectError("missing_manifest", "the zip holds no files");
    }
    const found = zipPlatforms(zip.entries);
    const hinted: AppType = options.appTypeHint === 3 ? 3 : 2;
    const decided = found.size === 1 ? ([...found][0] as AppType) : hinted;
    const platform_source = found.size === 1 ? "contents" : "hint";
    if (found.size === 0 && !versionFromFileName(options.fileName).version) {
      throw new InspectError(
        "missing_manifest",
        "the zip holds neither a macOS app (.app) nor a Windows program (.exe, .msi, .msix, .appx), and its name carries no version (x.y.z)",
      );
    }
    if (decided === 3) {
      const app = found.has(3) ? await readMacZip(zip, fileType) : null;
      return { ...(app ?? buildInfoFromFileName(options.fileName, 3, fileType)), platform_source };
    }
    return { ...windowsZipInfo(options.fileName), platform_source };
  });
