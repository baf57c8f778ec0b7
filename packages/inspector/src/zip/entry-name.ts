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
