export {
  type ConversionSummary,
  type ConvertOptions,
  convertAabToUniversalApk,
} from "./android/aab-to-apk/index.ts";
export { InspectError, type InspectReason } from "./errors.ts";
export { readJpegSize, scaledPng } from "./image/scaled-png.ts";
export { inspect } from "./inspect.ts";
export {
  acceptedExtensionList,
  acceptedExtensions,
  detectType,
  extensionOf,
  isSemanticVersion,
  tagName,
  versionFromFileName,
} from "./rules.ts";
export { type ByteSource, bufferSource, fileSource } from "./source.ts";
export type * from "./types.ts";
