import { guardCorrupt } from "../cfb/guard.ts";
import { InspectError } from "../errors.ts";
import { buildInfoFromFileName, versionFromFileName } from "../rules.ts";
import type { ByteSource } from "../source.ts";
import type { BuildInfo, InspectOptions } from "../types.ts";
import { openZip } from "../zip/index.ts";

const separators = /[\s._-]/;

/**
 * "TarmacDemo-1.4.2.zip" -> "TarmacDemo"; "Tool_v2.0.1_x64.zip" -> "Tool_x64": the file name
 * without its extension and without the x.y.z the version came from (and a "v" before it).
 */
export function nameFromFileName(fileName: string, version: string): string | null {
  const base = (fileName.split(/[\\/]/).pop() ?? "").replace(/\.zip$/i, "");
  const at = version ? base.indexOf(version) : -1;
  if (at === -1) return base.trim() || null;
  let before = base.slice(0, at);
  if (/(^|[\s._-])v$/i.test(before)) before = before.slice(0, -1);
  before = before.replace(/[\s._-]+$/, "");
  const rest = base.slice(at + version.length);
  const after = rest.replace(/^[\s._-]+/, "");
  const joiner = before && after ? (separators.test(rest[0] ?? "") ? (rest[0] as string) : " ") : "";
  return `${before}${joiner}${after}`.trim() || null;
}

/**
 * A Windows .zip carries no metadata the product relies on: version and build number follow
 * the spec's file-name rule. The archive must still be a readable zip with at least one file,
 * read through its central directory only; its contents (typically one .exe) are not parsed.
 */
export async function inspectWindowsZip(source: ByteSource, options: InspectOptions): Promise<BuildInfo> {
  return guardCorrupt("zip", async () => {
    const zip = await openZip(source);
    if (!zip.entries.some((entry) => !entry.isDirectory)) {
      throw new InspectError("missing_manifest", "the zip holds no files");
    }
    const { version } = versionFromFileName(options.fileName);
    return buildInfoFromFileName(options.fileName, 2, "zip", nameFromFileName(options.fileName, version));
  });
}
