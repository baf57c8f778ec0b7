import { readFileSync } from "node:fs";
import { inflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { readChunks, unfilterScanlines } from "../../src/apple/png.ts";
import { openCompoundFile } from "../../src/cfb/index.ts";
import { openMsiDatabase } from "../../src/cfb/msi-database.ts";
import { decodeMsiStreamName } from "../../src/cfb/msi-names.ts";
import { parseStringPool } from "../../src/cfb/msi-strings.ts";
import { InspectError } from "../../src/errors.ts";
import { inspectMsi } from "../../src/formats/msi.ts";
import { bufferSource } from "../../src/source.ts";
import { buildCompoundFile } from "./cfb-builder.ts";

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/windows/${name}`, import.meta.url));

// `msiinfo export demo.msi Property` (msitools 0.101) on the committed fixture:
//   ARPPRODUCTICON	app.ico
//   Manufacturer	Tarmac Test Co
//   ProductLanguage	1033
//   ProductCode	{8F2C6B1E-3D4A-4E5B-9C7D-1A2B3C4D5E6F}
//   ProductName	Tarmac Demo
//   ProductVersion	1.2.3
//   UpgradeCode	{0D5E7F21-6A3B-4C8D-9E0F-112233445566}
const demo = {
  app_type: 2,
  file_type: "msi",
  bundle_id: "{0D5E7F21-6A3B-4C8D-9E0F-112233445566}",
  name: "Tarmac Demo",
  version: "1.2.3",
  build_number: "123",
  min_os_version: null,
  manufacturer: "Tarmac Test Co",
  product_code: "{8F2C6B1E-3D4A-4E5B-9C7D-1A2B3C4D5E6F}",
  upgrade_code: "{0D5E7F21-6A3B-4C8D-9E0F-112233445566}",
  architecture: "x64",
  version_from_file_name: false,
};

// `openssl x509 -in fixtures/windows/keys/signer.pem -noout -subject -issuer -dates -fingerprint -sha256`
const signer = {
  subject: "C=US, O=Tarmac Test Co, CN=Tarmac Test Co",
  issuer: "C=US, O=Tarmac Test Co, CN=Tarmac Test Co",
  sha256: "ca777935f0a74cecec244511ef9aa0bbc3a91000c4bf1cce70c68b01a35fdc20",
  not_before: "2024-01-01T00:00:00.000Z",
  not_after: "2034-01-01T00:00:00.000Z",
};

async function reasonOf(action: () => Promise<unknown>): Promise<string> {
  try {
    await action();
  } catch (error) {
    if (error instanceof InspectError) return error.reason;
    throw error;
  }
  return "no error";
}

/** RGBA of one pixel of an 8-bit RGBA PNG. */
function pixelAt(png: Buffer, width: number, x: number, y: number): string {
  const idat = Buffer.concat(
    readChunks(png)
      .filter((chunk) => chunk.type === "IDAT")
      .map((chunk) => chunk.data),
  );
  const raw = inflateSync(idat);
  const rgba = unfilterScanlines(raw, width, raw.length / (1 + width * 4), 4);
  const at = (y * width + x) * 4;
  return rgba.subarray(at, at + 4).toString("hex");
}

describe("inspectMsi", () => {
  it("reads the Property table of an unsigned wixl MSI", async () => {
    const { icon: _icon, ...info } = await inspectMsi(bufferSource(fixture("demo.msi")), {
      fileName: "demo.msi",
    });
    expect(info).toEqual({ ...demo, signing: { schemes: [], signed: false, certificates: [] } });
  });

  it("converts the ARPPRODUCTICON .ico (largest image, a 1-bit bitmap) to PNG", async () => {
    const { icon } = await inspectMsi(bufferSource(fixture("demo.msi")), { fileName: "demo.msi" });
    expect(icon && { width: icon.width, height: icon.height }).toEqual({ width: 48, height: 48 });
    const png = icon?.png ?? Buffer.alloc(0);
    // fixtures/make-windows.sh paints the top half e0/30/30 and the bottom half 20/60/e0.
    expect(pixelAt(png, 48, 0, 0)).toBe("e03030ff");
    expect(pixelAt(png, 48, 47, 23)).toBe("e03030ff");
    expect(pixelAt(png, 48, 0, 24)).toBe("2060e0ff");
    expect(pixelAt(png, 48, 47, 47)).toBe("2060e0ff");
  });

  it("reports the Authenticode certificate of an osslsigncode-signed MSI", async () => {
    const { icon, ...info } = await inspectMsi(bufferSource(fixture("demo-signed.msi")), {
      fileName: "demo-signed.msi",
    });
    expect(icon?.width).toBe(48);
    expect(info).toEqual({
      ...demo,
      signing: { schemes: ["authenticode"], signed: true, certificates: [signer] },
    });
  });

  // `msiinfo export bare.msi Property`: Manufacturer, ProductLanguage, ProductCode, ProductName "Tarmac Bare".
  it("leaves version and upgrade code empty when the product has none", async () => {
    const info = await inspectMsi(bufferSource(fixture("bare.msi")), { fileName: "bare.msi" });
    expect(info).toMatchObject({
      bundle_id: null,
      name: "Tarmac Bare",
      version: null,
      build_number: "0",
      upgrade_code: null,
      product_code: "{8F2C6B1E-3D4A-4E5B-9C7D-1A2B3C4D5E6F}",
      architecture: "x86",
      icon: null,
      version_from_file_name: false,
    });
  });

  it("falls back to the file-name version when ProductVersion is missing", async () => {
    const info = await inspectMsi(bufferSource(fixture("bare.msi")), { fileName: "TarmacBare-2.5.1.msi" });
    expect(info).toMatchObject({ version: "2.5.1", build_number: "251", version_from_file_name: true });
  });

  it("turns a compound file without a database into missing_manifest", async () => {
    const { file } = buildCompoundFile([{ name: "Book", data: Buffer.from("not an installer") }]);
    expect(await reasonOf(() => inspectMsi(bufferSource(file), { fileName: "x.msi" }))).toBe(
      "missing_manifest",
    );
  });

  it("ends every truncation and byte flip of the signed MSI in an InspectError or a result", async () => {
    const msi = fixture("demo-signed.msi");
    for (let at = 0; at < msi.length; at += 61) {
      const cut = await reasonOf(() => inspectMsi(bufferSource(msi.subarray(0, at)), { fileName: "x.msi" }));
      expect(cut).not.toBe("no error");
      const flipped = Buffer.from(msi);
      flipped[at] = (flipped[at] as number) ^ 0xff;
      expect(["no error", "corrupt", "limit_exceeded", "missing_manifest"]).toContain(
        await reasonOf(() => inspectMsi(bufferSource(flipped), { fileName: "x.msi" })),
      );
    }
  });
});

describe("MSI database layer", () => {
  it("decodes packed stream names", () => {
    expect(decodeMsiStreamName("\u4840\u430f\u422f")).toEqual({ name: "File", isTable: true });
    expect(decodeMsiStreamName("\u4840\u3f7f\u4164\u422f\u4836")).toEqual({ name: "_Tables", isTable: true });
    expect(decodeMsiStreamName("\u0005DigitalSignature")).toEqual({
      name: "\u0005DigitalSignature",
      isTable: false,
    });
    expect(decodeMsiStreamName("demo.cab")).toEqual({ name: "demo.cab", isTable: false });
  });

  it("reads a string pool with a long string and the long-reference flag", () => {
    const long = "x".repeat(70_000);
    const pool = Buffer.alloc(4 * 5);
    pool.writeUInt16LE(65001, 0);
    pool.writeUInt16LE(0x8000, 2); // long string references
    pool.writeUInt16LE(3, 4); // id 1: "hé", 3 bytes of UTF-8
    pool.writeUInt16LE(1, 6);
    pool.writeUInt16LE(0, 8); // id 2: long string header
    pool.writeUInt16LE(1, 10);
    pool.writeUInt16LE(70_000 & 0xffff, 12);
    pool.writeUInt16LE(70_000 >>> 16, 14);
    // id 3: an empty slot (0, 0)
    const data = Buffer.concat([Buffer.from("hé"), Buffer.from(long)]);
    const strings = parseStringPool(pool, data);
    expect(strings.refBytes).toBe(3);
    expect(strings.codepage).toBe(65001);
    expect(strings.get(0)).toBeNull();
    expect(strings.get(1)).toBe("hé");
    expect(strings.get(2)).toBe(long);
    expect(strings.get(3)).toBe("");
    expect(() => strings.get(4)).toThrow("string id 4 of 3");
    expect(() => parseStringPool(pool, data.subarray(0, 100))).toThrow(
      "string data shorter than the pool says",
    );
  });

  it.each([
    [1252, "e9", "\u00e9"],
    [932, "93fa967b", "\u65e5\u672c"],
    [0, "414243", "ABC"],
    [65001, "c3a9", "\u00e9"],
    [12345, "e9", "\u00e9"],
  ])("decodes strings of codepage %i", (codepage, hex, text) => {
    const data = Buffer.from(hex, "hex");
    const pool = Buffer.alloc(8);
    pool.writeUInt16LE(codepage & 0xffff, 0);
    pool.writeUInt16LE(codepage >>> 16, 2);
    pool.writeUInt16LE(data.length, 4);
    pool.writeUInt16LE(1, 6);
    expect(parseStringPool(pool, data).get(1)).toBe(text);
  });

  it("reads the catalogs and tables of the fixture database", async () => {
    const database = await openMsiDatabase(await openCompoundFile(bufferSource(fixture("demo.msi"))));
    expect(database.tableNames).toContain("Property");
    expect(database.tableNames).toContain("Component");
    expect(await database.readTable("Media")).toEqual([
      { DiskId: 1, LastSequence: 1, DiskPrompt: null, Cabinet: "#demo.cab", VolumeLabel: null, Source: null },
    ]);
    expect(await database.readTable("NoSuchTable")).toBeNull();
    expect([...database.streams.keys()].sort()).toEqual([
      "\u0005SummaryInformation",
      "Icon.app.ico",
      "demo.cab",
    ]);
  });
});
