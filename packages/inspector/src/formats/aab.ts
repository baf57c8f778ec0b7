import { guardAndroid } from "../android/guard.ts";
import { resolveIcon } from "../android/icon.ts";
import { readManifestFields } from "../android/manifest-fields.ts";
import { readNativeAbis } from "../android/native-abis.ts";
import { parseProtoResources, parseProtoXml } from "../android/proto-values.ts";
import { message, readFields, text } from "../android/protobuf.ts";
import { readJarSignature } from "../android/signing.ts";
import { summarizeCertificate } from "../cert/x509.ts";
import { InspectError } from "../errors.ts";
import type { FormatReader } from "../inspect.ts";
import type { BuildInfo } from "../types.ts";
import { openZip } from "../zip/index.ts";

/** AAB: the base module's protobuf manifest and resource table, BundleConfig.pb, base/lib/ names, jarsigner signature. */
export const inspectAab: FormatReader = (source) =>
  guardAndroid(async (): Promise<BuildInfo> => {
    const zip = await openZip(source);
    const manifestEntry = zip.find("base/manifest/AndroidManifest.xml");
    if (!manifestEntry)
      throw new InspectError("missing_manifest", "bundle has no base/manifest/AndroidManifest.xml");
    const root = parseProtoXml(await zip.read(manifestEntry));
    const tableEntry = zip.find("base/resources.pb");
    const table = tableEntry ? parseProtoResources(await zip.read(tableEntry)) : null;
    const fields = readManifestFields(root, table);
    const configEntry = zip.find("BundleConfig.pb");
    let bundletoolVersion: string | null = null;
    if (configEntry) {
      const bundletool = message(readFields(await zip.read(configEntry)), 1);
      bundletoolVersion = (bundletool && text(readFields(bundletool), 2)) || null;
    }
    const icon = await resolveIcon(fields.icon, {
      table,
      parseXml: parseProtoXml,
      async readFile(path, maxBytes) {
        const entry = zip.find(`base/${path}`);
        return entry ? zip.read(entry, maxBytes) : null;
      },
    });
    const jar = await readJarSignature(zip);
    return {
      app_type: 0,
      file_type: "aab",
      bundle_id: fields.packageName,
      name: fields.label,
      version: fields.versionName,
      build_number: fields.versionCode,
      min_os_version: fields.minSdk,
      icon,
      signing: {
        schemes: jar ? ["v1"] : [],
        signed: jar?.valid ?? false,
        certificates: (jar?.certificates ?? []).map(summarizeCertificate),
      },
      target_sdk_version: fields.targetSdk,
      compile_sdk_version: fields.compileSdk,
      labels: fields.labels,
      permissions: fields.permissions,
      features: fields.features,
      native_abis: readNativeAbis(zip.entries, "base/lib/"),
      debuggable: fields.debuggable,
      bundletool_version: bundletoolVersion,
    };
  });
