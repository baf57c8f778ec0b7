import { InspectError } from "../errors.ts";

const utf8 = new TextDecoder("utf-8");

/**
 * Turns a stored entry name into the form every reader looks up ("Payload/X.app/Info.plist").
 * Anything that could land outside the archive root when unpacked is refused outright, because
 * downstream consumers (icon extraction, bundle conversion) must never see such a path.
 * Returns null for names that normalize to nothing (a bare "./" directory entry).
 */
export function normalizeEntryName(raw: Buffer): string | null {
  if (raw.includes(0)) throw new InspectError("unsafe_entry", "entry name contains a NUL byte");
  const text = utf8.decode(raw);
  const isDirectory = text.endsWith("/") || text.endsWith("\\");
  const slashed = text.replaceAll("\\", "/");
  if (slashed.startsWith("/") || /^[A-Za-z]:/.test(slashed)) {
    throw new InspectError("unsafe_entry", `absolute entry name: ${JSON.stringify(text)}`);
  }
  const parts: string[] = [];
  for (const part of slashed.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..")
      throw new InspectError("unsafe_entry", `entry name escapes the archive: ${JSON.stringify(text)}`);
    parts.push(part);
  }
  if (parts.length === 0) return null;
  const joined = parts.join("/");
  return isDirectory ? `${joined}/` : joined;
}

const slash = 0x2f;
const dot = 0x2e;

/**
 * True when `bytes[start, end)` is an ASCII name already in normalized form: no NUL, backslash or
 * empty, "." or ".." segment, not absolute, no drive letter. Such a name decodes to itself (ASCII
 * is its own UTF-8 and Latin-1), so it needs no decoding pass, splitting or joining; any other
 * name goes through normalizeEntryName, which also raises the errors.
 */
export function isNormalAsciiName(bytes: Buffer, start: number, end: number): boolean {
  if (end <= start || bytes[start] === slash) return false;
  const first = (bytes[start] as number) | 0x20;
  if (end - start >= 2 && bytes[start + 1] === 0x3a && first >= 0x61 && first <= 0x7a) return false; // "C:"
  let segmentStart = start;
  for (let i = start; i <= end; i++) {
    const byte = i < end ? (bytes[i] as number) : slash;
    if (byte !== slash) {
      if (byte === 0 || byte >= 0x80 || byte === 0x5c) return false;
      continue;
    }
    const length = i - segmentStart;
    // An empty segment is only allowed as the trailing slash of a directory name.
    if (length === 0 && i !== end) return false;
    if (length === 1 && bytes[segmentStart] === dot) return false;
    if (length === 2 && bytes[segmentStart] === dot && bytes[segmentStart + 1] === dot) return false;
    segmentStart = i + 1;
  }
  return true;
}
