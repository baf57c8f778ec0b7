import { InspectError } from "./errors.ts";
import { inspectAab } from "./formats/aab.ts";
import { inspectApk } from "./formats/apk.ts";
import { inspectDmg } from "./formats/dmg.ts";
import { inspectIpa } from "./formats/ipa.ts";
import { inspectMsi } from "./formats/msi.ts";
import { inspectMsix } from "./formats/msix.ts";
import { inspectPkg } from "./formats/pkg.ts";
import { inspectZip } from "./formats/zip-build.ts";
import { acceptedExtensionList, detectType } from "./rules.ts";
import { type ByteSource, fileSource } from "./source.ts";
import type { BuildInfo, FileType, InspectOptions } from "./types.ts";

/** Each format reader gets the source, the options and the detected file type. */
export type FormatReader = (
  source: ByteSource,
  options: InspectOptions,
  fileType: FileType,
) => Promise<BuildInfo>;

function readerFor(fileType: FileType): FormatReader {
  switch (fileType) {
    case "apk":
      return inspectApk;
    case "aab":
      return inspectAab;
    case "ipa":
      return inspectIpa;
    case "msi":
      return inspectMsi;
    case "dmg":
      return inspectDmg;
    case "pkg":
      return inspectPkg;
    case "zip":
      return inspectZip;
    default:
      return inspectMsix; // msix, msixbundle, msixupload, appx, appxbundle, appxupload
  }
}

/**
 * Reads a build's metadata. `source` is a file path or a random-access reader; only the byte
 * ranges the format needs are read. Throws InspectError for anything that is not a readable build.
 */
export async function inspect(source: ByteSource | string, options: InspectOptions): Promise<BuildInfo> {
  const detected = detectType(options.fileName, options.appTypeHint);
  if (!detected) {
    throw new InspectError(
      "unsupported_type",
      `Unsupported file type. Please upload the ${acceptedExtensionList()}`,
    );
  }
  const reader = readerFor(detected.fileType);
  if (typeof source !== "string") return reader(source, options, detected.fileType);
  const file = await fileSource(source);
  try {
    return await reader(file, options, detected.fileType);
  } finally {
    await file.close?.();
  }
}
