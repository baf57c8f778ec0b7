import { readAuthenticode, unsignedWindows } from "../cfb/authenticode.ts";
import { guardCorrupt } from "../cfb/guard.ts";
import { type CfbEntry, type CompoundFile, openCompoundFile } from "../cfb/index.ts";
import { openMsiDatabase } from "../cfb/msi-database.ts";
import { readPropertySet } from "../cfb/property-set.ts";
import { InspectError } from "../errors.ts";
import { limits } from "../limits.ts";
import { versionFromFileName } from "../rules.ts";
import type { ByteSource } from "../source.ts";
import type { BuildInfo, Icon, InspectOptions } from "../types.ts";
import { readIcoAsPng } from "./windows-icon.ts";

const signatureStream = "\u0005DigitalSignature";
const summaryStream = "\u0005SummaryInformation";
const summaryTemplate = 7;
const maxSignatureBytes = 4 * 1024 * 1024;

/** Platform names of the summary "Template" property ("x64;1033") in the names MSIX uses. */
const platforms: Record<string, string> = {
  intel: "x86",
  x64: "x64",
  amd64: "x64",
  intel64: "ia64",
  arm: "arm",
  arm64: "arm64",
};

async function readArchitecture(
  file: CompoundFile,
  streams: ReadonlyMap<string, unknown>,
): Promise<string | null> {
  const entry = file.find(summaryStream);
  if (!entry || !streams.has(summaryStream)) return null;
  const template = readPropertySet(await file.read(entry, 1024 * 1024)).get(summaryTemplate);
  if (typeof template !== "string") return null;
  const platform = template.split(";")[0]?.split(",")[0]?.trim().toLowerCase() ?? "";
  return platforms[platform] ?? (platform || null);
}

/**
 * ARPPRODUCTICON names a row of the Icon table, whose data is the stream "Icon.<name>": an .ico
 * (converted) or an .exe (not parsed). A broken icon leaves the icon out rather than rejecting
 * an installer that is otherwise fine.
 */
async function readProductIcon(
  file: CompoundFile,
  streams: ReadonlyMap<string, CfbEntry>,
  iconName: string | null,
): Promise<Icon | null> {
  const entry = iconName ? streams.get(`Icon.${iconName}`) : undefined;
  if (!entry) return null;
  const data = await file.read(entry, limits.maxIconBytes);
  try {
    return readIcoAsPng(data);
  } catch (error) {
    if (error instanceof InspectError || error instanceof RangeError) return null;
    throw error;
  }
}

/**
 * MSI: the Property table gives name, version, manufacturer and the product/upgrade codes.
 * bundle_id is the UpgradeCode because it stays the same across the versions of one product
 * (ProductCode changes with every major upgrade), so it identifies the app the way a bundle id does.
 */
export async function inspectMsi(source: ByteSource, options: InspectOptions): Promise<BuildInfo> {
  return guardCorrupt("MSI", async () => {
    const file = await openCompoundFile(source);
    const database = await openMsiDatabase(file);
    const rows = await database.readTable("Property");
    if (!rows || rows.length === 0) throw new InspectError("missing_manifest", "MSI has no Property table");
    const properties = new Map<string, string>();
    for (const row of rows) {
      if (typeof row.Property === "string" && typeof row.Value === "string") {
        properties.set(row.Property, row.Value.trim());
      }
    }
    const read = (key: string): string | null => properties.get(key) || null;
    let version = read("ProductVersion");
    let fromFileName = false;
    if (!version) {
      const named = versionFromFileName(options.fileName).version;
      version = named || null;
      fromFileName = named !== "";
    }
    const signatureEntry = database.streams.get(signatureStream);
    return {
      app_type: 2,
      file_type: "msi",
      bundle_id: read("UpgradeCode"),
      name: read("ProductName"),
      version,
      build_number: version ? version.replaceAll(".", "") : "0",
      min_os_version: null,
      icon: await readProductIcon(file, database.streams, read("ARPPRODUCTICON")),
      signing: signatureEntry
        ? readAuthenticode(await file.read(signatureEntry, maxSignatureBytes))
        : { ...unsignedWindows },
      manufacturer: read("Manufacturer"),
      product_code: read("ProductCode"),
      upgrade_code: read("UpgradeCode"),
      architecture: await readArchitecture(file, database.streams),
      version_from_file_name: fromFileName,
    };
  });
}
