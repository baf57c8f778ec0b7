import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { inspectDmg } from "../../src/formats/dmg.ts";
import { type ByteSource, bufferSource } from "../../src/source.ts";

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/apple/${name}`, import.meta.url));

/** Counts the bytes a reader asks for, to show that only the trailer and plist are read. */
function countingSource(data: Buffer): ByteSource & { bytesRead: number } {
  const inner = bufferSource(data);
  const counter = {
    size: inner.size,
    bytesRead: 0,
    read(offset: number, length: number) {
      counter.bytesRead += length;
      return inner.read(offset, length);
    },
  };
  return counter;
}

const inspectBytes = (data: Buffer, fileName: string) => inspectDmg(bufferSource(data), { fileName }, "dmg");

describe("DMG", () => {
  it("validates the koly trailer and takes the version from the file name", async () => {
    const source = countingSource(fixture("dmg/Tarmac-koly-2.0.1.dmg"));
    const info = await inspectDmg(source, { fileName: "Tarmac-koly-2.0.1.dmg" }, "dmg");
    expect(info).toEqual({
      app_type: 3,
      file_type: "dmg",
      bundle_id: null,
      name: null,
      version: "2.0.1",
      build_number: "201",
      min_os_version: null,
      icon: null,
      signing: null,
      version_from_file_name: true,
    });
    // 512-byte trailer plus the 260-byte plist, out of 393 988 bytes.
    expect(source.bytesRead).toBe(512 + 260);
  });

  it("reads a raw APM/HFS+ image from xorriso by its file name", async () => {
    const info = await inspectBytes(fixture("dmg/Tarmac-1.2.3.dmg"), "Tarmac-1.2.3.dmg");
    expect([info.version, info.build_number, info.version_from_file_name]).toEqual(["1.2.3", "123", true]);
    const unnamed = await inspectBytes(fixture("dmg/Tarmac-1.2.3.dmg"), "Tarmac.dmg");
    expect([unnamed.version, unnamed.build_number]).toEqual([null, "0"]);
  });

  it("refuses a koly trailer with a bad version, header size or plist range", async () => {
    const good = fixture("dmg/Tarmac-koly-2.0.1.dmg");
    const trailer = good.length - 512;
    const patch = (offset: number, write: (buf: Buffer) => void) => {
      const copy = Buffer.from(good);
      write(copy.subarray(trailer + offset));
      return copy;
    };
    const cases = [
      patch(4, (b) => b.writeUInt32BE(3, 0)), // version
      patch(8, (b) => b.writeUInt32BE(200, 0)), // header size
      patch(0x20, (b) => b.writeBigUInt64BE(BigInt(good.length), 0)), // data fork length
      patch(0xd8, (b) => b.writeBigUInt64BE(BigInt(good.length), 0)), // plist offset
      patch(0xe0, (b) => b.writeBigUInt64BE(0n, 0)), // plist length
      patch(0xd8, (b) => b.writeBigUInt64BE(0n, 0)), // plist offset pointing at the image, not a plist
      patch(0xd8, (b) => b.writeBigUInt64BE(1n << 60n, 0)), // offset beyond a safe integer range
    ];
    for (const bad of cases) {
      await expect(inspectBytes(bad, "Tarmac-2.0.1.dmg")).rejects.toMatchObject({ reason: "corrupt" });
    }
  });

  it("refuses a file that is no disk image", async () => {
    await expect(inspectBytes(Buffer.alloc(4096, 0x41), "x-1.0.0.dmg")).rejects.toMatchObject({
      reason: "corrupt",
    });
    await expect(inspectBytes(Buffer.alloc(100), "x-1.0.0.dmg")).rejects.toMatchObject({ reason: "corrupt" });
  });
});
