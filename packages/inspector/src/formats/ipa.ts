import {
  guardCorrupt,
  maxPlistBytes,
  readBundleFields,
  readOptional,
  readPlistEntry,
} from "../apple/bundle.ts";
import { iconFilePatterns, readLargestIcon, resolveIconEntries } from "../apple/ios-icon.ts";
import { readProvisioningProfile } from "../apple/mobileprovision.ts";
import { InspectError } from "../errors.ts";
import type { FormatReader } from "../inspect.ts";
import { type PlistDict, type PlistValue, stringOf } from "../plist/index.ts";
import type { BuildInfo, ProvisioningInfo } from "../types.ts";
import { openZip } from "../zip/index.ts";
import type { ZipArchive } from "../zip/types.ts";

/**
 * iOS archives: Payload/<App>.app/ holds the app's Info.plist, its icons, the provisioning
 * profile and the code signature. Only the bundle directly under Payload describes the build;
 * extensions and nested bundles carry their own Info.plist with other ids and versions.
 */

const topInfoPlist = /^Payload\/([^/]+\.app)\/Info\.plist$/;
const maxExtensions = 64;
const deviceFamilies: Record<number, string> = { 1: "iphone", 2: "ipad", 3: "tv", 4: "watch", 7: "vision" };

export function readDeviceFamily(value: PlistValue | undefined): string[] {
  // Without the key, iOS treats the app as iPhone-only.
  if (value === undefined) return ["iphone"];
  const items = Array.isArray(value) ? value : [value];
  const families: string[] = [];
  for (const item of items) {
    const family = deviceFamilies[Number(item)];
    if (family && !families.includes(family)) families.push(family);
  }
  return families;
}

async function readExtensions(
  zip: ZipArchive,
  bundleDir: string,
): Promise<NonNullable<BuildInfo["extensions"]>> {
  const pattern = /^PlugIns\/([^/]+\.appex)\/Info\.plist$/;
  const plugIns = `${bundleDir}PlugIns/`;
  const out: NonNullable<BuildInfo["extensions"]> = [];
  for (const entry of zip.entries) {
    // The prefix test first: it rules out the bulk of a large bundle without slicing names.
    if (!entry.name.startsWith(plugIns) || !pattern.test(entry.name.slice(bundleDir.length))) continue;
    if (out.length >= maxExtensions) throw new InspectError("limit_exceeded", "too many app extensions");
    const info = await readPlistEntry(zip, entry);
    const fields = readBundleFields(info);
    out.push({
      bundle_id: fields.bundle_id,
      name: fields.name,
      path: entry.name.slice(0, -"/Info.plist".length),
    });
  }
  return out;
}

async function readProfile(zip: ZipArchive, bundleDir: string): Promise<ProvisioningInfo | null> {
  const entry = zip.find(`${bundleDir}embedded.mobileprovision`);
  if (!entry) return null;
  return readProvisioningProfile(await zip.read(entry, maxPlistBytes));
}

export const inspectIpa: FormatReader = (source, _options, fileType) =>
  guardCorrupt(async () => {
    const zip = await openZip(source);
    const main = zip.entries.find((entry) => topInfoPlist.test(entry.name));
    if (!main) throw new InspectError("missing_manifest", "no Payload/<App>.app/Info.plist in the archive");
    const bundleDir = main.name.slice(0, -"Info.plist".length);
    const info: PlistDict = await readPlistEntry(zip, main);
    const provisioning = await readProfile(zip, bundleDir);
    const codeSigned = zip.find(`${bundleDir}_CodeSignature/CodeResources`) !== undefined;
    const schemes = codeSigned || provisioning ? ["cms"] : [];
    const icon = await readOptional(() =>
      readLargestIcon(zip, resolveIconEntries(zip, bundleDir, iconFilePatterns(info))),
    );
    return {
      app_type: 1,
      file_type: fileType,
      ...readBundleFields(info),
      min_os_version: stringOf(info.MinimumOSVersion),
      icon,
      signing: { schemes, signed: schemes.length > 0, certificates: provisioning?.certificates ?? [] },
      device_family: readDeviceFamily(info.UIDeviceFamily),
      extensions: await readExtensions(zip, bundleDir),
      provisioning,
    };
  });
