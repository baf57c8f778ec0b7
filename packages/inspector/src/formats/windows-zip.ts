import { buildInfoFromFileName, versionFromFileName } from "../rules.ts";
import type { BuildInfo } from "../types.ts";

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
 * the spec's file-name rule; the program inside (typically one .exe) is not parsed.
 */
export function windowsZipInfo(fileName: string): BuildInfo {
  const { version } = versionFromFileName(fileName);
  return buildInfoFromFileName(fileName, 2, "zip", nameFromFileName(fileName, version));
}
