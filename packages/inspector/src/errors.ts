/** Why a file could not be read as a build. The upload flow maps every InspectError to upload error code 1. */
export type InspectReason =
  | "unsupported_type" // extension not in the accepted list
  | "corrupt" // structure broken: truncated, bad magic, bad offsets
  | "limit_exceeded" // a bound of limits.ts was hit (entries, sizes, ratio, depth, objects)
  | "unsafe_entry" // an entry name escapes its root (../, absolute)
  | "missing_manifest"; // the archive is valid but lacks what identifies a build

export class InspectError extends Error {
  override readonly name = "InspectError";
  constructor(
    readonly reason: InspectReason,
    message: string,
  ) {
    super(message);
  }
}
