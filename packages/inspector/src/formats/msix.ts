import { guardCorrupt } from "../cfb/guard.ts";
import { InspectError } from "../errors.ts";
import { limits } from "../limits.ts";
import { type ByteSource, bufferSource } from "../source.ts";
import type { BuildInfo, FileType, InspectOptions, SigningInfo } from "../types.ts";
import { attributeOf, findChild, findChildren } from "../xml/index.ts";
import { openZip, type ZipArchive, type ZipEntry } from "../zip/index.ts";
import {
  findPackageEntry,
  type PackageFields,
  readManifest,
  readPackage,
  readPackageSigning,
} from "./msix-package.ts";

const bundleManifestPath = "AppxMetadata/AppxBundleManifest.xml";
const localHeaderSize = 30;

interface Reading extends PackageFields {
  signing: SigningInfo;
  packages?: { identifier: string; version: string | null }[];
}

interface OpenedInner {
  source: ByteSource;
  zip: ZipArchive;
}

/**
 * An inner package is a zip of its own. Stored (as packers write them) it is read in place
 * through a window on the outer file, which keeps it random-access; a deflated one is inflated
 * once, bounded by maxEntryBytes.
 */
async function openInner(source: ByteSource, zip: ZipArchive, entry: ZipEntry): Promise<OpenedInner> {
  if (entry.method !== 0) {
    const inflated = bufferSource(await zip.read(entry, limits.maxEntryBytes));
    return { source: inflated, zip: await openZip(inflated) };
  }
  const header = await source.read(entry.localHeaderOffset, localHeaderSize);
  if (header.readUInt32LE(0) !== 0x04034b50)
    throw new InspectError("corrupt", `bad local header for ${entry.name}`);
  const start = entry.localHeaderOffset + localHeaderSize + header.readUInt16LE(26) + header.readUInt16LE(28);
  const size = entry.compressedSize;
  if (start + size > source.size)
    throw new InspectError("corrupt", `${entry.name} runs past the end of the file`);
  const window: ByteSource = {
    size,
    read(offset, length) {
      if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0) {
        throw new InspectError("corrupt", `invalid read range ${offset}+${length} in ${entry.name}`);
      }
      if (offset + length > size) throw new InspectError("corrupt", `read past the end of ${entry.name}`);
      return source.read(start + offset, length);
    },
  };
  return { source: window, zip: await openZip(window) };
}

async function readSinglePackage(zip: ZipArchive): Promise<Reading> {
  return { ...(await readPackage(zip)), signing: await readPackageSigning(zip) };
}

/**
 * A bundle's identity comes from AppxBundleManifest.xml; display name, icon and minimum OS come
 * from its first application package when that package is inside the bundle.
 */
async function readBundle(source: ByteSource, zip: ZipArchive, manifestEntry: ZipEntry): Promise<Reading> {
  const root = await readManifest(zip, manifestEntry, "Bundle");
  const identity = findChild(root, "Identity");
  if (!identity) throw new InspectError("missing_manifest", "bundle manifest has no Identity");
  const listed = findChild(root, "Packages");
  const packages = listed ? findChildren(listed, "Package") : [];
  const applications = packages.filter(
    (item) => (attributeOf(item, "Type") ?? "application") === "application",
  );
  const architectures = [
    ...new Set(applications.map((item) => attributeOf(item, "Architecture")).filter(Boolean)),
  ];
  let inner: PackageFields | null = null;
  for (const application of applications) {
    const fileName = attributeOf(application, "FileName");
    const entry = fileName ? findPackageEntry(zip, fileName) : undefined;
    if (!entry) continue;
    inner = await readPackage((await openInner(source, zip, entry)).zip);
    break;
  }
  const bundleId = attributeOf(identity, "Name");
  return {
    bundle_id: bundleId,
    name: inner?.name ?? bundleId,
    version: attributeOf(identity, "Version"),
    publisher: attributeOf(identity, "Publisher"),
    architecture: architectures.length > 0 ? architectures.join(",") : null,
    min_os_version: inner?.min_os_version ?? null,
    icon: inner?.icon ?? null,
    signing: await readPackageSigning(zip),
    packages: packages.map((item) => ({
      identifier: attributeOf(item, "FileName") ?? "",
      version: attributeOf(item, "Version"),
    })),
  };
}

const bundleExtension = /\.(msixbundle|appxbundle)$/i;
const packageExtension = /\.(msix|appx)$/i;

/** Reads whatever the zip is: a package, a bundle, or (for uploads) a zip holding one of them. */
async function readAny(source: ByteSource, zip: ZipArchive, allowNested: boolean): Promise<Reading> {
  if (zip.find("AppxManifest.xml")) return readSinglePackage(zip);
  const bundleManifest = zip.find(bundleManifestPath);
  if (bundleManifest) return readBundle(source, zip, bundleManifest);
  if (allowNested) {
    const files = zip.entries.filter((entry) => !entry.isDirectory && !entry.name.includes("/"));
    const inner =
      files.find((entry) => bundleExtension.test(entry.name)) ??
      files.find((entry) => packageExtension.test(entry.name));
    if (inner) {
      const opened = await openInner(source, zip, inner);
      return readAny(opened.source, opened.zip, false);
    }
  }
  throw new InspectError("missing_manifest", "no AppxManifest.xml, bundle manifest or inner package found");
}

/**
 * .msix/.appx packages, .msixbundle/.appxbundle bundles and .msixupload/.appxupload Store
 * uploads (a zip holding a bundle or package). bundle_id is the identity name, which stays
 * the same across versions; build_number is the version without dots.
 */
export async function inspectMsix(
  source: ByteSource,
  _options: InspectOptions,
  fileType: FileType,
): Promise<BuildInfo> {
  return guardCorrupt("MSIX", async () => {
    const zip = await openZip(source);
    const isUpload = fileType === "msixupload" || fileType === "appxupload";
    const reading = await readAny(source, zip, isUpload);
    const info: BuildInfo = {
      app_type: 2,
      file_type: fileType,
      bundle_id: reading.bundle_id,
      name: reading.name,
      version: reading.version,
      build_number: reading.version ? reading.version.replaceAll(".", "") : "0",
      min_os_version: reading.min_os_version,
      icon: reading.icon,
      signing: reading.signing,
      publisher: reading.publisher,
      architecture: reading.architecture,
      version_from_file_name: false,
    };
    if (reading.packages) info.packages = reading.packages;
    return info;
  });
}
