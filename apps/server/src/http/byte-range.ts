import type { ByteRange } from "../platform/storage/storage-driver.ts";

export type RangeResult =
  | { kind: "full" }
  | { kind: "partial"; range: ByteRange }
  | { kind: "unsatisfiable" };

/**
 * Parses a single-range `Range: bytes=...` header (start-end, start-, -suffix). Multi-range
 * requests get the whole file, which RFC 9110 allows and no installer needs otherwise.
 */
export function parseRange(header: string | undefined, size: number): RangeResult {
  if (!header) return { kind: "full" };
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return { kind: "full" };
  const [, startText = "", endText = ""] = match;
  if (startText === "" && endText === "") return { kind: "full" };
  if (size === 0) return { kind: "unsatisfiable" };
  if (startText === "") {
    const suffix = Number(endText);
    if (suffix === 0) return { kind: "unsatisfiable" };
    return { kind: "partial", range: { start: Math.max(0, size - suffix), end: size - 1 } };
  }
  const start = Number(startText);
  const end = endText === "" ? size - 1 : Math.min(Number(endText), size - 1);
  if (start >= size || end < start) return { kind: "unsatisfiable" };
  return { kind: "partial", range: { start, end } };
}
