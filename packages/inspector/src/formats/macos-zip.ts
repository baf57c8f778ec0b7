import { guardCorrupt, readBundleFields, readOptional, readPlistEntry } from "../apple/bundle.ts";
import { icnsToPng } from "../apple/icns.ts";
import type { FormatReader } from "../inspect.ts";
import { limits } from "../limits.ts";
import { type PlistDict, stringOf } from "../plist/index.ts";
import { buildInfoFromFileName } from "../rules.ts";
import type { BuildInfo, Icon } from "../types.ts";
import { openZip } from "../zip/index.ts";
import type { ZipArchive } from "../zip/types.ts";

/**
 * A zipped macOS app: <X>.app/Contents/Info.plist at the top level or one folder down (Finder's
 * "Compress" and most CI scripts produce one of the two). Without an app inside, the spec's
 * file-name rule supplies the version.
 */

const appInfoPlist = /^(?:[^/]+\/)?[^/]+\.app\/Contents\/Info\.plist$/;

async function readIcon(zip: ZipArchive, contentsDir: string, info: PlistDict): Promise<Icon | null> {
  const file = stringOf(info.CFBundleIconFile);
  if (!file) return null;
  const name = /\.icns$/i.test(file) ? file : `${file}.icns`;
  const entry = zip.find(`${contentsDir}Resources/${name}`);
  if (!entry) return null;
  return icnsToPng(await zip.read(entry, limits.maxIconBytes));
}

export const inspectMacZip: FormatReader = (source, options, fileType) =>
  guardCorrupt(async (): Promise<BuildInfo> => {
    const zip = await openZip(source);
    const candidates = zip.entries
      .filter((entry) => appInfoPlist.test(entry.name) && !entry.name.startsWith("__MACOSX/"))
      .sort((a, b) => a.name.split("/").length - b.name.split("/").length);
    const main = candidates[0];
    if (!main) return buildInfoFromFileName(options.fileName, 3, fileType);
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
