/**
 * _CodeSignature/CodeResources: the seal over a bundle's files. Version 1 ("files") lists every
 * file with its SHA-1; version 2 ("files2") lists SHA-1 and SHA-256 and names nested code
 * (frameworks, extensions) by its CodeDirectory hash and designated requirement instead.
 */
import type { PlistDict, PlistValue } from "../../plist/types.ts";
import { writeXmlPlist } from "./plist-writer.ts";

export interface FileSeal {
  /** Path inside the bundle. */
  path: string;
  sha1: Buffer;
  sha256: Buffer;
}

export interface NestedSeal {
  path: string;
  cdHash: Buffer;
  requirement: string;
}

const rules: PlistDict = {
  "^.*": true,
  "^.*\\.lproj/": { optional: true, weight: 1000 },
  "^.*\\.lproj/locversion.plist$": { omit: true, weight: 1100 },
  "^Base\\.lproj/": { weight: 1010 },
  "^version.plist$": true,
};

const rules2: PlistDict = {
  ".*\\.dSYM($|/)": { weight: 11 },
  "^(.*/)?\\.DS_Store$": { omit: true, weight: 2000 },
  "^.*": true,
  "^.*\\.lproj/": { optional: true, weight: 1000 },
  "^.*\\.lproj/locversion.plist$": { omit: true, weight: 1100 },
  "^Base\\.lproj/": { weight: 1010 },
  "^Info\\.plist$": { omit: true, weight: 20 },
  "^PkgInfo$": { omit: true, weight: 20 },
  "^embedded\\.provisionprofile$": { weight: 20 },
  "^version\\.plist$": { weight: 20 },
};

const optional = (path: string) => /(^|\/)[^/]*\.lproj\//.test(path);
const omitted = (path: string) =>
  /(^|\/)\.DS_Store$/.test(path) || /(^|\/)[^/]*\.lproj\/locversion\.plist$/.test(path);

/**
 * The CodeResources plist. `files` are the bundle's own files (not its main executable, not
 * _CodeSignature); `nestedFiles` are the files inside nested bundles, which only version 1 lists.
 */
export function buildCodeResources(files: FileSeal[], nestedFiles: FileSeal[], nested: NestedSeal[]): Buffer {
  const v1: PlistDict = {};
  const v2: PlistDict = {};
  for (const file of [...files, ...nestedFiles]) {
    if (omitted(file.path)) continue;
    v1[file.path] = optional(file.path) ? { hash: file.sha1, optional: true } : file.sha1;
  }
  for (const file of files) {
    if (omitted(file.path) || file.path === "Info.plist" || file.path === "PkgInfo") continue;
    const entry: PlistDict = { hash: file.sha1, hash2: file.sha256 };
    if (optional(file.path)) entry.optional = true;
    v2[file.path] = entry;
  }
  for (const code of nested) {
    v2[code.path] = { cdhash: code.cdHash.subarray(0, 20), requirement: code.requirement } as PlistValue;
  }
  return writeXmlPlist({ files: v1, files2: v2, rules, rules2 });
}
