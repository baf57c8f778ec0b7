import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { InspectError } from "../../src/errors.ts";
import { limits } from "../../src/limits.ts";
import { parsePlist } from "../../src/plist/index.ts";

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/apple/${name}`, import.meta.url));

// `plistutil -i all-types.bin.plist -f xml` prints back exactly these values.
const allTypes = {
  String: "Tarmac & Friends",
  Unicode: "Grüße ✈",
  Small: 42,
  Negative: -7,
  Big: 4294967296000,
  Huge: 9223372036854775807n,
  Real: 2.5,
  Yes: true,
  No: false,
  When: "2024-05-01T12:30:00.000Z",
  Blob: Buffer.from([0xde, 0xad, 0xbe, 0xef]),
  List: ["a", 1, { Nested: "deep" }],
  Empty: {},
};

async function expectReason(run: () => unknown, reason: string): Promise<void> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(InspectError);
    expect((error as InspectError).reason).toBe(reason);
    return;
  }
  throw new Error("expected an InspectError");
}

/** Assembles a binary plist from already-encoded objects (1-byte offsets and refs). */
function assembleBinary(objects: number[][], top = 0, refSize = 1): Buffer {
  const body: number[] = [];
  const offsets: number[] = [];
  for (const object of objects) {
    offsets.push(8 + body.length);
    body.push(...object);
  }
  const tableOffset = 8 + body.length;
  const offsetSize = tableOffset > 255 ? 2 : 1;
  const table = offsets.flatMap((o) => (offsetSize === 2 ? [o >> 8, o & 0xff] : [o]));
  const trailer = Buffer.alloc(32);
  trailer[6] = offsetSize;
  trailer[7] = refSize;
  trailer.writeBigUInt64BE(BigInt(objects.length), 8);
  trailer.writeBigUInt64BE(BigInt(top), 16);
  trailer.writeBigUInt64BE(BigInt(tableOffset), 24);
  return Buffer.concat([Buffer.from("bplist00"), Buffer.from(body), Buffer.from(table), trailer]);
}

describe("plist", () => {
  it("reads the binary plist made by plistutil -f bin", () => {
    expect(parsePlist(fixture("plist/all-types.bin.plist"))).toEqual(allTypes);
  });

  it("reads the XML plist it was made from", () => {
    expect(parsePlist(fixture("plist/all-types.xml.plist"))).toEqual(allTypes);
  });

  it("keeps __proto__ as an ordinary key", () => {
    const xml = `<plist><dict><key>__proto__</key><string>x</string></dict></plist>`;
    const value = parsePlist(Buffer.from(xml)) as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  });

  it("refuses a reference cycle", async () => {
    // Object 0: an array whose only element is object 0.
    await expectReason(() => parsePlist(assembleBinary([[0xa1, 0x00]])), "corrupt");
  });

  it("bounds the expansion of shared references", async () => {
    // Each array holds two references to the next: 2^40 values if expanded naively.
    const objects: number[][] = [];
    for (let i = 0; i < 40; i++) objects.push([0xa2, i + 1, i + 1]);
    objects.push([0x09]);
    await expectReason(() => parsePlist(assembleBinary(objects)), "limit_exceeded");
  });

  it("bounds nesting depth", async () => {
    const objects: number[][] = [];
    for (let i = 0; i < limits.plistMaxDepth + 2; i++) objects.push([0xa1, i + 1]);
    objects.push([0x08]);
    await expectReason(() => parsePlist(assembleBinary(objects)), "limit_exceeded");
    const xml = `<plist>${"<array>".repeat(100)}${"</array>".repeat(100)}</plist>`;
    await expectReason(() => parsePlist(Buffer.from(xml)), "limit_exceeded");
  });

  it("refuses an object count above the limit", async () => {
    const buf = assembleBinary([[0x09]]);
    buf.writeBigUInt64BE(BigInt(limits.plistMaxObjects + 1), buf.length - 24);
    await expectReason(() => parsePlist(buf), "limit_exceeded");
  });

  it("checks every offset and reference", async () => {
    const outside = assembleBinary([[0x09]]);
    outside[outside.length - 33] = 0xf0; // the single offset, pointing past the objects
    await expectReason(() => parsePlist(outside), "corrupt");
    await expectReason(() => parsePlist(assembleBinary([[0xa1, 0x07]])), "corrupt");
    // A string whose length runs past the object area.
    await expectReason(() => parsePlist(assembleBinary([[0x5f, 0x10, 0xff, 0x41]])), "corrupt");
  });

  it("turns truncated and flipped files into InspectError", async () => {
    const good = fixture("plist/all-types.bin.plist");
    for (let length = 0; length < good.length; length += 5) {
      await expectReason(() => parsePlist(good.subarray(0, length)), "corrupt");
    }
    for (let i = 8; i < good.length; i++) {
      const bad = Buffer.from(good);
      bad[i] = (bad[i] as number) ^ 0xff;
      try {
        parsePlist(bad);
      } catch (error) {
        expect(error).toBeInstanceOf(InspectError);
      }
    }
  });

  it("refuses malformed XML plists", async () => {
    await expectReason(() => parsePlist(Buffer.from("<plist><dict><key>a</key></dict></plist>")), "corrupt");
    await expectReason(() => parsePlist(Buffer.from("<plist><integer>12x</integer></plist>")), "corrupt");
    await expectReason(() => parsePlist(Buffer.from("<html/>")), "corrupt");
    await expectReason(() => parsePlist(Buffer.from("<plist><date>yesterday</date></plist>")), "corrupt");
  });
});
