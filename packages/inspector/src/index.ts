export { InspectError, type InspectReason } from "./errors.ts";
export { inspect } from "./inspect.ts";
export { bufferSource, type ByteSource, fileSource } from "./source.ts";
export {
  acceptedExtensionList,
  acceptedExtensions,
  detectType,
  extensionOf,
  isSemanticVersion,
  tagName,
  versionFromFileName,
} from "./rules.ts";
export type * from "./types.ts";
