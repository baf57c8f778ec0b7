import { open, rm } from "node:fs/promises";
import { resolve } from "node:path";
import { InspectError } from "../../errors.ts";
import { fileSource } from "../../source.ts";
import { type OpenedZip, openZip, type ZipEntry } from "../../zip/index.ts";
import { asInspectError } from "../../zip/open-zip.ts";
import { ApkWriter } from "./apk-writer.ts";
import { writeResourceTable } from "./arsc-writer.ts";
import { writeBinaryXml } from "./binary-xml.ts";
import { type BundleConfig, placement, readBundleConfig } from "./bundle-config.ts";
import {
  type BundleModule,
  extractNativeLibs,
  isFused,
  keepNativeLibrariesInApk,
  mergeManifests,
  minSdkVersion,
  moduleNames,
} from "./modules.ts";
import { type ModuleResources, readResourceTable } from "./resource-model.ts";
import { readProtoXml } from "./xml-tree.ts";

export interface ConvertOptions {
  /** Page alignment of stored native libraries, overriding BundleConfig.pb (4096, 16384 or 65536). */
  pageAlignment?: number;
}

export interface ConversionSummary {
  /** The modules fused into the APK, base first. */
  modules: string[];
  entries: number;
}

/** Generated files can be large (a big app's resources.arsc); they are still bounded. */
const maxProtoBytes = 256 * 1024 * 1024;

/** Where a module's file goes in the APK; null for bundle metadata that APKs do not carry. */
function apkPath(moduleRelative: string): string | null {
  if (/^(res|assets|lib)\//.test(moduleRelative)) return moduleRelative;
  if (moduleRelative.startsWith("root/")) return moduleRelative.slice("root/".length);
  if (/^dex\/classes\d*\.dex$/.test(moduleRelative)) return moduleRelative;
  return null;
}

const profilesFolder = "BUNDLE-METADATA/com.android.tools.build.profiles/";

const dexNumber = (name: string) => Number(/classes(\d*)\.dex$/.exec(name)?.[1] || 1);

/**
 * Builds the universal APK of an Android App Bundle, as `bundletool build-apks --mode=universal`
 * does, without Java: the base and every fused module merged, protobuf manifest, resource table and
 * XML converted to Android's binary formats, dex, assets, native libraries and root files copied
 * (streamed, never whole in memory), BundleConfig.pb's compression honoured. The APK is aligned
 * but unsigned; sign it before installing.
 */
export async function convertAabToUniversalApk(
  input: string,
  output: string,
  options: ConvertOptions = {},
): Promise<ConversionSummary> {
  if (resolve(input) === resolve(output)) throw new Error("the APK must not overwrite its bundle");
  const source = await fileSource(input);
  const handle = await open(input, "r").catch(async (error: unknown) => {
    await source.close?.();
    throw error;
  });
  let writer: ApkWriter | null = null;
  try {
    const zip = await openZip(source);
    const read = (entry: ZipEntry) => zip.read(entry, maxProtoBytes);
    const configEntry = zip.find("BundleConfig.pb");
    const config = readBundleConfig(configEntry ? await read(configEntry) : null);
    if (options.pageAlignment) config.pageAlignment = options.pageAlignment;
    const names = moduleNames(zip.entries.map((entry) => entry.name));
    if (names[0] !== "base")
      throw new InspectError("missing_manifest", "bundle has no base/manifest/AndroidManifest.xml");
    const modules: BundleModule[] = [];
    for (const name of names) {
      const manifest = readProtoXml(await read(zip.find(`${name}/manifest/AndroidManifest.xml`) as ZipEntry));
      if (name === "base" || isFused(manifest)) modules.push({ name, manifest });
    }
    const [base, ...features] = modules as [BundleModule, ...BundleModule[]];
    const manifest = mergeManifests(
      base.manifest,
      features.map((feature) => feature.manifest),
      modules.map((module) => module.name),
    );
    const minSdk = minSdkVersion(manifest);
    const declared = extractNativeLibs(manifest);
    const nativeLibrariesStored =
      declared === false || (declared === undefined && config.uncompressNativeLibraries && minSdk >= 23);
    if (nativeLibrariesStored && hasNativeLibraries(zip, modules)) keepNativeLibrariesInApk(manifest);
    const rules = {
      nativeLibrariesStored,
      dexStored: config.uncompressDexFiles && minSdk >= config.uncompressedDexMinSdk,
    };

    let resources: ModuleResources = { packages: [], protoXmlFiles: new Set(), untypedXmlFiles: new Set() };
    for (const module of modules) {
      const table = zip.find(`${module.name}/resources.pb`);
      if (table) resources = readResourceTable(await read(table), resources);
    }

    writer = await ApkWriter.create(output);
    const add = (path: string, data: Buffer) => writer?.addBuffer(path, data, placement(path, config, rules));
    await add("AndroidManifest.xml", writeBinaryXml(manifest, { utf16: true }));
    let entries = 1;
    if (resources.packages.length > 0) {
      await add("resources.arsc", writeResourceTable(resources.packages));
      // The table's model can be large; only the XML file lists are needed from here on.
      resources.packages = [];
      entries++;
    }
    for (const { from, path } of moduleFiles(zip, modules)) {
      const data = await protoXml(resources, path, () => read(from));
      if (data) await add(path, writeBinaryXml(readProtoXml(data), { utf16: false }));
      else await writer.copyEntry(handle, from, path, placement(path, config, rules));
      entries++;
    }
    await writer.finish();
    return { modules: modules.map((module) => module.name), entries };
  } catch (error) {
    // Only a file this call started is removed; whatever was at `output` before stays.
    if (writer) {
      await writer.abort();
      await rm(output, { force: true });
    }
    // Malformed bytes surface as RangeError/TypeError from Buffer reads and writes: a corrupt bundle.
    throw asInspectError(error);
  } finally {
    await handle.close();
    await source.close?.();
  }
}

/**
 * The bytes of a res/ file that holds protobuf XML, or null for a file to copy as it is. An XML file
 * of unknown kind is protobuf when it starts like one (an XmlNode's element field), never with
 * "<", a byte order mark or white space as text XML does.
 */
async function protoXml(
  resources: ModuleResources,
  path: string,
  read: () => Promise<Buffer>,
): Promise<Buffer | null> {
  if (resources.protoXmlFiles.has(path)) return read();
  if (!resources.untypedXmlFiles.has(path)) return null;
  const data = await read();
  return data[0] === 0x0a ? data : null;
}

function hasNativeLibraries(zip: OpenedZip, modules: BundleModule[]): boolean {
  return zip.entries.some((entry) =>
    modules.some((m) => entry.name.startsWith(`${m.name}/lib/`) && entry.name.endsWith(".so")),
  );
}

/**
 * Every module file that goes into the APK, in APK order: dex first (the base keeps its names,
 * each fused module's dex files continue the classesN.dex numbering), then resources, assets,
 * native libraries and root files.
 */
function moduleFiles(zip: OpenedZip, modules: BundleModule[]): { from: ZipEntry; path: string }[] {
  const dex: { from: ZipEntry; path: string }[] = [];
  const rest: { from: ZipEntry; path: string }[] = [];
  let nextDex = 1;
  for (const module of modules) {
    const prefix = `${module.name}/`;
    const own = zip.entries.filter((entry) => !entry.isDirectory && entry.name.startsWith(prefix));
    const moduleDex = own
      .filter((entry) => /^dex\/classes\d*\.dex$/.test(entry.name.slice(prefix.length)))
      .sort((a, b) => dexNumber(a.name) - dexNumber(b.name));
    for (const from of moduleDex) {
      dex.push({ from, path: nextDex === 1 ? "classes.dex" : `classes${nextDex}.dex` });
      nextDex++;
    }
    for (const from of own) {
      const path = apkPath(from.name.slice(prefix.length));
      if (path && !path.startsWith("dex/")) rest.push({ from, path });
    }
  }
  // The ART baseline profile the build recorded, where ART looks for it in an APK.
  for (const name of ["baseline.prof", "baseline.profm"]) {
    const from = zip.find(`${profilesFolder}${name}`);
    if (from) rest.push({ from, path: `assets/dexopt/${name}` });
  }
  const order = (path: string) => ["res/", "assets/", "lib/"].findIndex((p) => path.startsWith(p)) >>> 0;
  rest.sort((a, b) => order(a.path) - order(b.path));
  return [...dex, ...rest];
}

export type { BundleConfig };
