import { readPngSize } from "../apple/png.ts";
import { readAuthenticode, unsignedWindows } from "../cfb/authenticode.ts";
import { InspectError } from "../errors.ts";
import { limits } from "../limits.ts";
import type { Icon, SigningInfo } from "../types.ts";
import {
  attributeOf,
  childText,
  findChild,
  findChildren,
  findPath,
  localName,
  parseXml,
  type XmlElement,
} from "../xml/index.ts";
import type { ZipArchive, ZipEntry } from "../zip/index.ts";

/** Manifests are a few KiB; this bound only stops a hostile entry from costing memory. */
export const maxManifestBytes = 4 * 1024 * 1024;
const maxLogoCandidates = 32;

export interface PackageFields {
  bundle_id: string | null;
  name: string | null;
  version: string | null;
  publisher: string | null;
  architecture: string | null;
  min_os_version: string | null;
  icon: Icon | null;
}

/** Zip item names of OPC packages are percent-encoded ("My%20Logo.png"); manifests name the plain path. */
function decodeItemName(name: string): string {
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

/** Finds an entry by the path a manifest uses: backslashes, any case, maybe percent-encoded in the zip. */
export function findPackageEntry(zip: ZipArchive, path: string): ZipEntry | undefined {
  const wanted = path.replaceAll("\\", "/").replace(/^\/+/, "").toLowerCase();
  return zip.entries.find(
    (entry) => !entry.isDirectory && decodeItemName(entry.name).toLowerCase() === wanted,
  );
}

export async function readManifest(zip: ZipArchive, entry: ZipEntry, rootName: string): Promise<XmlElement> {
  const root = parseXml(await zip.read(entry, maxManifestBytes));
  if (localName(root.name) !== rootName) {
    throw new InspectError("missing_manifest", `${entry.name} has <${root.name}>, expected <${rootName}>`);
  }
  return root;
}

/**
 * Windows resolves "Assets\StoreLogo.png" to qualified variants such as
 * "Assets\StoreLogo.scale-200.png" or "...targetsize-48.png". Every variant in the package is a
 * candidate; the largest PNG wins, and high-contrast variants only when nothing else exists.
 */
export async function readLogo(zip: ZipArchive, logoPath: string | null): Promise<Icon | null> {
  if (!logoPath) return null;
  const path = logoPath.replaceAll("\\", "/").replace(/^\/+/, "").toLowerCase();
  const slash = path.lastIndexOf("/");
  const dir = path.slice(0, slash + 1);
  const file = path.slice(slash + 1);
  const dot = file.lastIndexOf(".");
  const stem = dot === -1 ? file : file.slice(0, dot);
  const extension = dot === -1 ? "" : file.slice(dot);
  const candidates: { entry: ZipEntry; contrast: boolean }[] = [];
  for (const entry of zip.entries) {
    if (entry.isDirectory) continue;
    const name = decodeItemName(entry.name).toLowerCase();
    if (!name.startsWith(dir) || !name.endsWith(extension)) continue;
    const base = name.slice(dir.length);
    const isVariant =
      base === file ||
      (base.startsWith(`${stem}.`) &&
        base.length > stem.length + 1 + extension.length &&
        !base.includes("/"));
    if (!isVariant) continue;
    candidates.push({ entry, contrast: base.includes("contrast-") });
    if (candidates.length >= maxLogoCandidates) break;
  }
  let best: (Icon & { contrast: boolean }) | null = null;
  for (const { entry, contrast } of candidates) {
    if (entry.uncompressedSize > limits.maxIconBytes) continue;
    const png = await zip.read(entry, limits.maxIconBytes);
    const size = readPngSize(png);
    if (!size) continue;
    const better =
      !best ||
      (best.contrast && !contrast) ||
      (best.contrast === contrast && size.width * size.height > best.width * best.height);
    if (better) best = { png, ...size, contrast };
  }
  return best ? { png: best.png, width: best.width, height: best.height } : null;
}

/** AppxSignature.p7x is "PKCX" followed by the Authenticode PKCS#7 DER. */
export async function readPackageSigning(zip: ZipArchive): Promise<SigningInfo> {
  const entry = zip.find("AppxSignature.p7x");
  if (!entry) return { ...unsignedWindows };
  const p7x = await zip.read(entry, 4 * 1024 * 1024);
  if (p7x.toString("latin1", 0, 4) !== "PKCX")
    throw new InspectError("corrupt", "AppxSignature.p7x lacks PKCX");
  return readAuthenticode(p7x.subarray(4));
}

function readMinVersion(root: XmlElement): string | null {
  const dependencies = findChild(root, "Dependencies");
  const families = dependencies ? findChildren(dependencies, "TargetDeviceFamily") : [];
  const family = families.find((item) => attributeOf(item, "Name") === "Windows.Desktop") ?? families[0];
  if (family) return attributeOf(family, "MinVersion");
  // Windows 8.x manifests name the OS version in Prerequisites instead.
  const prerequisites = findChild(root, "Prerequisites");
  return prerequisites ? childText(prerequisites, "OSMinVersion") : null;
}

/**
 * "ms-resource:AppName" points into resources.pri, which is not read; the visual elements'
 * name, then the identity name stand in for it.
 */
function readDisplayName(root: XmlElement, identityName: string | null): string | null {
  const isLiteral = (value: string | null | undefined): value is string =>
    !!value && !value.startsWith("ms-resource:");
  const properties = findChild(root, "Properties");
  const display = properties ? childText(properties, "DisplayName") : null;
  if (isLiteral(display)) return display;
  const applications = findChild(root, "Applications");
  for (const application of applications ? findChildren(applications, "Application") : []) {
    const visual = findChild(application, "VisualElements");
    const name = visual ? attributeOf(visual, "DisplayName") : null;
    if (isLiteral(name)) return name;
  }
  return identityName;
}

/** Reads AppxManifest.xml of a single .msix/.appx package. */
export async function readPackage(zip: ZipArchive): Promise<PackageFields> {
  const entry = zip.find("AppxManifest.xml");
  if (!entry) throw new InspectError("missing_manifest", "package has no AppxManifest.xml");
  const root = await readManifest(zip, entry, "Package");
  const identity = findChild(root, "Identity");
  if (!identity) throw new InspectError("missing_manifest", "AppxManifest.xml has no Identity");
  const bundleId = attributeOf(identity, "Name");
  return {
    bundle_id: bundleId,
    name: readDisplayName(root, bundleId),
    version: attributeOf(identity, "Version"),
    publisher: attributeOf(identity, "Publisher"),
    architecture: attributeOf(identity, "ProcessorArchitecture"),
    min_os_version: readMinVersion(root),
    icon: await readLogo(zip, findPath(root, "Properties", "Logo")?.text.trim() || null),
  };
}
