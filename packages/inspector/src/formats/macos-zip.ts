import { guardCorrupt, readBundleFields, readOptional, readPlistEntry } from "../apple/bundle.ts";
import { icnsToPng } from "../apple/icns.ts";
import { limits } from "../limits.ts";
import { type PlistDict, stringOf } from "../plist/index.ts";
import type { BuildInfo, FileType, Icon } from "../types.ts";
import type { ZipArchive } from "../zip/types.ts";
import { appInfoPlist } from "./zip-platform.ts";

async function readIcon(zip: ZipArchive, contentsDir: string, info: PlistDict): Promise<Icon | null> {
  const file = stringOf(info.CFBundleIconFile);
  if (!file) return null;
  const name = /\.icns$/i.test(file) ? file : `${file}.icns`;
  const entry = zip.find(`${contentsDir}Resources/${name}`);
  if (!entry) return null;
  return icnsToPng(await zip.read(entry, limits.maxIconBytes));
}

/**
 * A zipped macOS app: the shallowest <X>.app/Contents/Info.plist (top level or one folder down)
 * is the app; null when there is none.
 */
export function readMacZip(zip: ZipArchive, fileType: FileType): Promise<BuildInfo | null> {
  return guardCorrupt(async (): Promise<BuildInfo | null> => {
    const candidates = zip.entries
      .filter((entry) => appInfoPlist.test(entry.name) && !entry.name.startsWith("__MACOSX/"))
      .sort((a, b) => a.name.split("/").length - b.name.split("/").length);
    const main = candidates[0];
    if (!main) return null;
    const contentsDir = main.name.slice(0, -"Info.plist".length);
    const info = await readPlistEntry(zip, main);
    const codeSigned = zip.find(`${contentsDir}_CodeSignature/CodeResources`) !== undefined;
    return {
      app_type: 3,
      file_type: fileType,
      ...readBundleFields(info),
      min_os_version: stringOf(info.LSMinimumSystemVersion),
      icon: await readOptional(() => readIcon(zip, contentsDir, info)),
      signing: { schemes: codeSigned ? ["cms"] : [], signed: codeSigned, certificates: [] },
      version_from_file_name: false,
    };
  });
}
