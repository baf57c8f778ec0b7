import { parseResourceTable } from "../android/arsc.ts";
import { parseBinaryXml } from "../android/axml.ts";
import { guardAndroid } from "../android/guard.ts";
import { resolveIcon } from "../android/icon.ts";
import { readManifestFields } from "../android/manifest-fields.ts";
import { readNativeAbis } from "../android/native-abis.ts";
import { readApkSigning } from "../android/signing.ts";
import { InspectError } from "../errors.ts";
import type { FormatReader } from "../inspect.ts";
import type { BuildInfo } from "../types.ts";
import { openZip } from "../zip/index.ts";

/** APK: binary AndroidManifest.xml, resources.arsc for references, lib/<abi>/ names, signing block and META-INF. */
export const inspectApk: FormatReader = (source) =>
  guardAndroid(async (): Promise<BuildInfo> => {
    const zip = await openZip(source);
    const manifestEntry = zip.find("AndroidManifest.xml");
    if (!manifestEntry) throw new InspectError("missing_manifest", "APK has no AndroidManifest.xml");
    const root = parseBinaryXml(await zip.read(manifestEntry));
    const tableEntry = zip.find("resources.arsc");
    const table = tableEntry ? parseResourceTable(await zip.read(tableEntry)) : null;
    const fields = readManifestFields(root, table);
    const icon = await resolveIcon(fields.icon, {
      table,
      parseXml: parseBinaryXml,
      async readFile(path, maxBytes) {
        const entry = zip.find(path);
        return entry ? zip.read(entry, maxBytes) : null;
      },
    });
    return {
      app_type: 0,
      file_type: "apk",
      bundle_id: fields.packageName,
      name: fields.label,
      version: fields.versionName,
      build_number: fields.versionCode,
      min_os_version: fields.minSdk,
      icon,
      signing: await readApkSigning(source, zip),
      target_sdk_version: fields.targetSdk,
      compile_sdk_version: fields.compileSdk,
      labels: fields.labels,
      permissions: fields.permissions,
      features: fields.features,
      native_abis: readNativeAbis(zip.entries, "lib/"),
      debuggable: fields.debuggable,
    };
  });
