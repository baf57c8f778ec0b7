import { describe, expect, it } from "vitest";
import { parseResourceTable } from "../../src/android/arsc.ts";
import { parseBinaryXml } from "../../src/android/axml.ts";
import { parseProtoXml } from "../../src/android/proto-values.ts";
import { InspectError } from "../../src/errors.ts";
import { inspectAab } from "../../src/formats/aab.ts";
import { inspectApk } from "../../src/formats/apk.ts";
import { bufferSource } from "../../src/source.ts";
import { openZip } from "../../src/zip/index.ts";
import { readAndroidFixture } from "./fixture-paths.ts";
import { buildZip } from "./zip-builder.ts";

function reasonOf(run: () => unknown): string | null {
  try {
    run();
    return null;
  } catch (error) {
    if (!(error instanceof InspectError)) throw error;
    return error.reason;
  }
}

async function reasonOfAsync(run: () => Promise<unknown>): Promise<string | null> {
  try {
    await run();
    return null;
  } catch (error) {
    if (!(error instanceof InspectError)) throw error;
    return error.reason;
  }
}

/** A binary XML document: a UTF-16 string pool holding "e", then `depth` nested <e> start tags. */
function nestedAxml(depth: number, stringCount = 1): Buffer {
  const pool = Buffer.alloc(28 + 4 + 8);
  pool.writeUInt16LE(0x0001, 0);
  pool.writeUInt16LE(28, 2);
  pool.writeUInt32LE(pool.length, 4);
  pool.writeUInt32LE(stringCount, 8);
  pool.writeUInt32LE(32, 20);
  pool.writeUInt32LE(0, 28);
  pool.writeUInt16LE(1, 32);
  pool.write("e", 34, "utf16le");
  const element = Buffer.alloc(36);
  element.writeUInt16LE(0x0102, 0);
  element.writeUInt16LE(16, 2);
  element.writeUInt32LE(36, 4);
  element.writeUInt32LE(0xffffffff, 16);
  element.writeUInt32LE(0, 20);
  element.writeUInt16LE(20, 24);
  element.writeUInt16LE(20, 26);
  const body = Buffer.concat([pool, ...Array.from({ length: depth }, () => element)]);
  const header = Buffer.alloc(8);
  header.writeUInt16LE(0x0003, 0);
  header.writeUInt16LE(8, 2);
  header.writeUInt32LE(8 + body.length, 4);
  return Buffer.concat([header, body]);
}

function protoField(field: number, payload: Buffer): Buffer {
  const bytes = [(field << 3) | 2];
  let length = payload.length;
  while (length >= 0x80) {
    bytes.push((length & 0x7f) | 0x80);
    length >>>= 7;
  }
  bytes.push(length);
  return Buffer.concat([Buffer.from(bytes), payload]);
}

async function fixtureEntry(archive: string, name: string): Promise<Buffer> {
  const zip = await openZip(bufferSource(await readAndroidFixture(archive)));
  const entry = zip.find(name);
  if (!entry) throw new Error(`${name} missing from ${archive}`);
  return zip.read(entry);
}

describe("binary XML bounds", () => {
  it("parses a shallow synthetic document", () => {
    expect(parseBinaryXml(nestedAxml(3)).children[0]?.children[0]?.name).toBe("e");
  });

  it("refuses nesting deeper than the limit", () => {
    expect(reasonOf(() => parseBinaryXml(nestedAxml(100)))).toBe("limit_exceeded");
  });

  it("refuses a string pool whose count does not fit its chunk", () => {
    expect(reasonOf(() => parseBinaryXml(nestedAxml(1, 0x10000000)))).toBe("corrupt");
  });

  it("ends every truncation and byte flip of a real manifest in a result or an InspectError", async () => {
    const manifest = await fixtureEntry("localized.apk", "AndroidManifest.xml");
    const reasons = new Set<string | null>();
    for (let cut = 0; cut < manifest.length; cut += 5) {
      reasons.add(reasonOf(() => parseBinaryXml(manifest.subarray(0, cut))));
    }
    for (let at = 0; at < manifest.length; at += 3) {
      const flipped = Buffer.from(manifest);
      flipped[at] = (flipped[at] ?? 0) ^ 0xa5;
      reasons.add(reasonOf(() => parseBinaryXml(flipped)));
    }
    expect([...reasons].every((r) => r === null || r === "corrupt" || r === "limit_exceeded")).toBe(true);
    expect(reasons.has("corrupt")).toBe(true);
  });
});

describe("resources.arsc bounds", () => {
  it("ends every byte flip of a real table in a result or an InspectError", async () => {
    const table = await fixtureEntry("localized.apk", "resources.arsc");
    const ids = [0x7f010000, 0x7f020000, 0x7f030000, 0x7f040000, 0x7f040001];
    let failures = 0;
    for (let at = 0; at < table.length; at += 2) {
      const flipped = Buffer.from(table);
      flipped[at] = (flipped[at] ?? 0) ^ 0x5a;
      const reason = reasonOf(() => {
        const parsed = parseResourceTable(flipped);
        for (const id of ids) parsed.lookup(id);
      });
      if (reason !== null) failures++;
    }
    expect(failures).toBeGreaterThan(0);
  });

  it("rejects something that is not a resource table", () => {
    expect(reasonOf(() => parseResourceTable(Buffer.from("not a table at all")))).toBe("corrupt");
  });
});

describe("protobuf XML bounds", () => {
  it("refuses elements nested deeper than the limit", () => {
    let element = protoField(3, Buffer.from("e"));
    for (let i = 0; i < 100; i++)
      element = Buffer.concat([protoField(3, Buffer.from("e")), protoField(5, protoField(1, element))]);
    expect(reasonOf(() => parseProtoXml(protoField(1, element)))).toBe("limit_exceeded");
  });

  it("rejects lengths that run past the message and truncated varints", () => {
    expect(reasonOf(() => parseProtoXml(Buffer.from([0x0a, 0x7f, 0x00])))).toBe("corrupt");
    expect(reasonOf(() => parseProtoXml(Buffer.from([0x0a, 0xff, 0xff])))).toBe("corrupt");
    expect(reasonOf(() => parseProtoXml(Buffer.from([0x0b])))).toBe("corrupt");
  });

  it("ends every byte flip of a real bundle manifest in a result or an InspectError", async () => {
    const manifest = await fixtureEntry("bundle.aab", "base/manifest/AndroidManifest.xml");
    for (let at = 0; at < manifest.length; at += 3) {
      const flipped = Buffer.from(manifest);
      flipped[at] = (flipped[at] ?? 0) ^ 0xff;
      expect([null, "corrupt", "limit_exceeded"]).toContain(reasonOf(() => parseProtoXml(flipped)));
    }
  });
});

describe("package-level failures", () => {
  it("reports missing_manifest for a zip without AndroidManifest.xml", async () => {
    const zip = buildZip([{ name: "classes.dex", data: Buffer.from("dex\n035") }]);
    expect(await reasonOfAsync(() => inspectApk(bufferSource(zip), { fileName: "x.apk" }, "apk"))).toBe(
      "missing_manifest",
    );
    expect(await reasonOfAsync(() => inspectAab(bufferSource(zip), { fileName: "x.aab" }, "aab"))).toBe(
      "missing_manifest",
    );
  });

  it("refuses an APK with two AndroidManifest.xml entries", async () => {
    const real = await openZip(bufferSource(await readAndroidFixture("bare.apk")));
    const entries = await Promise.all(
      real.entries.map(async (entry) => ({ name: entry.name, data: await real.read(entry) })),
    );
    const manifest = entries.find((entry) => entry.name === "AndroidManifest.xml");
    if (!manifest) throw new Error("bare.apk lacks its manifest");
    const twice = buildZip([...entries, { name: "AndroidManifest.xml", data: nestedAxml(1) }]);
    await expect(inspectApk(bufferSource(twice), { fileName: "x.apk" }, "apk")).rejects.toMatchObject({
      reason: "corrupt",
      message: "duplicate zip entry name: AndroidManifest.xml",
    });
    // The same entries once each still read.
    const once = await inspectApk(bufferSource(buildZip(entries)), { fileName: "x.apk" }, "apk");
    expect(once.bundle_id).toBeTruthy();
  });

  it("reports missing_manifest when the manifest's root is not <manifest>", async () => {
    const zip = buildZip([{ name: "AndroidManifest.xml", data: nestedAxml(1) }]);
    expect(await reasonOfAsync(() => inspectApk(bufferSource(zip), { fileName: "x.apk" }, "apk"))).toBe(
      "missing_manifest",
    );
  });

  it("reports corrupt for a manifest that is not binary XML", async () => {
    const zip = buildZip([{ name: "AndroidManifest.xml", data: Buffer.from("<manifest package='a'/>") }]);
    expect(await reasonOfAsync(() => inspectApk(bufferSource(zip), { fileName: "x.apk" }, "apk"))).toBe(
      "corrupt",
    );
  });

  it("bounds the APK signing block size", async () => {
    const apk = Buffer.from(await readAndroidFixture("modern.apk"));
    const magic = apk.lastIndexOf("APK Sig Block 42");
    apk.writeBigUInt64LE(1n << 40n, magic - 8);
    expect(await reasonOfAsync(() => inspectApk(bufferSource(apk), { fileName: "m.apk" }, "apk"))).toBe(
      "limit_exceeded",
    );
    apk.writeBigUInt64LE(100n, magic - 8);
    expect(await reasonOfAsync(() => inspectApk(bufferSource(apk), { fileName: "m.apk" }, "apk"))).toBe(
      "corrupt",
    );
  });

  it("ends every truncation of an APK in an InspectError", async () => {
    const apk = await readAndroidFixture("localized.apk");
    for (let cut = 0; cut < apk.length; cut += 97) {
      expect(
        await reasonOfAsync(() =>
          inspectApk(bufferSource(apk.subarray(0, cut)), { fileName: "t.apk" }, "apk"),
        ),
      ).toBe("corrupt");
    }
  });
});
