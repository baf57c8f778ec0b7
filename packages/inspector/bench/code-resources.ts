import { createHash } from "node:crypto";
import { closeSync, mkdirSync, openSync, readdirSync, readSync } from "node:fs";
import { join } from "node:path";
import { writeXmlPlist, type XmlPlistValue } from "./plist-xml.ts";

/**
 * `_CodeSignature/CodeResources` as codesign writes it for an iOS bundle: every resource file with
 * its SHA-1 (`files`) and SHA-1 + SHA-256 (`files2`), nested code (frameworks, extensions) by
 * cdhash and designated requirement, and the resource rules.
 */

const signer = "iPhone Distribution: Tarmac Fixtures (ABCDE12345)";
const chunk = Buffer.allocUnsafe(4 * 1024 * 1024);

function hashFile(path: string): { sha1: Buffer; sha256: Buffer } {
  const sha1 = createHash("sha1");
  const sha256 = createHash("sha256");
  const fd = openSync(path, "r");
  try {
    for (let n = readSync(fd, chunk); n > 0; n = readSync(fd, chunk)) {
      sha1.update(chunk.subarray(0, n));
      sha256.update(chunk.subarray(0, n));
    }
  } finally {
    closeSync(fd);
  }
  return { sha1: sha1.digest(), sha256: sha256.digest() };
}

/** Files under `dir`, relative, in byte order (codesign sorts its dictionaries the same way). */
function listFiles(dir: string, prefix = ""): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const rel = prefix + entry.name;
    if (entry.isDirectory()) out.push(...listFiles(join(dir, entry.name), `${rel}/`));
    else out.push(rel);
  }
  return out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

const lproj = { optional: true, weight: 1000 };
const rules: XmlPlistValue = {
  "^.*": true,
  "^.*\\.lproj/": lproj,
  "^.*\\.lproj/locversion.plist$": { omit: true, weight: 1100 },
  "^Base\\.lproj/": { weight: 1010 },
  "^version.plist$": true,
};
const rules2: XmlPlistValue = {
  ".*\\.dSYM($|/)": { weight: 11 },
  "^(.*/)?\\.DS_Store$": { omit: true, weight: 2000 },
  "^.*": true,
  "^.*\\.lproj/": lproj,
  "^.*\\.lproj/locversion.plist$": { omit: true, weight: 1100 },
  "^Base\\.lproj/": { weight: 1010 },
  "^Info\\.plist$": { omit: true, weight: 20 },
  "^PkgInfo$": { omit: true, weight: 20 },
  "^embedded\\.provisionprofile$": { weight: 20 },
  "^version\\.plist$": { weight: 20 },
};

export interface NestedCode {
  /** Bundle path relative to the signed bundle ("Frameworks/Core.framework"). */
  path: string;
  identifier: string;
  executable: string;
}

/**
 * Writes `<bundle>/_CodeSignature/CodeResources`. The main executable and Info.plist are sealed by
 * the code directory, not listed; files of nested bundles are sealed by their own CodeResources.
 */
export function writeCodeResources(bundle: string, executable: string, nested: NestedCode[] = []): void {
  const files: Record<string, XmlPlistValue> = {};
  const files2: Record<string, XmlPlistValue> = {};
  const inNested = (rel: string) => nested.some((n) => rel.startsWith(`${n.path}/`));
  for (const rel of listFiles(bundle)) {
    if (rel === executable || rel === "Info.plist" || rel.startsWith("_CodeSignature/") || inNested(rel))
      continue;
    const { sha1, sha256 } = hashFile(join(bundle, rel));
    const optional = /\.lproj\//.test(rel) && !rel.startsWith("Base.lproj/");
    files[rel] = optional ? { hash: sha1, optional: true } : sha1;
    files2[rel] = optional ? { hash: sha1, hash2: sha256, optional: true } : { hash: sha1, hash2: sha256 };
  }
  for (const code of nested) {
    const cdhash = hashFile(join(bundle, code.path, code.executable)).sha256.subarray(0, 20);
    files2[code.path] = {
      cdhash,
      requirement: `identifier "${code.identifier}" and anchor apple generic and certificate leaf[subject.CN] = "${signer}" and certificate 1[field.1.2.840.113635.100.6.2.1] /* exists */`,
    };
  }
  const sorted = (dict: Record<string, XmlPlistValue>) =>
    Object.fromEntries(Object.entries(dict).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  mkdirSync(join(bundle, "_CodeSignature"), { recursive: true });
  writeXmlPlist(join(bundle, "_CodeSignature/CodeResources"), {
    files: sorted(files),
    files2: sorted(files2),
    rules,
    rules2,
  });
}
