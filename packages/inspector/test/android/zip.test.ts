import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { deflateRawSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { InspectError } from "../../src/errors.ts";
import { type ByteSource, bufferSource, fileSource } from "../../src/source.ts";
import { openZip } from "../../src/zip/index.ts";
import { buildZip } from "./zip-builder.ts";

const fixture = (name: string) =>
  fileURLToPath(new URL(`../../fixtures/android/zip/${name}`, import.meta.url));

async function expectReason(promise: Promise<unknown>, reason: string): Promise<void> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(InspectError);
  expect((error as InspectError).reason).toBe(reason);
}

/** Counts the bytes requested, to prove the reader never touches more than it needs. */
function countingSource(inner: ByteSource): ByteSource & { bytesRead: number } {
  const counted = {
    size: inner.size,
    bytesRead: 0,
    read: async (offset: number, length: number) => {
      counted.bytesRead += length;
      return inner.read(offset, length);
    },
  };
  return counted;
}

describe("openZip on archives written by Info-ZIP zip", () => {
  it("lists entries with the sizes and CRCs unzip -lv reports", async () => {
    const zip = await openZip(bufferSource(await readFile(fixture("plain.zip"))));
    expect(
      zip.entries.map((e) => [e.name, e.method, e.uncompressedSize, e.crc32.toString(16).padStart(8, "0")]),
    ).toEqual([
      ["dir/", 0, 0, "00000000"],
      ["dir/hello.txt", 0, 11, "cb72381b"],
      ["dir/sub/", 0, 0, "00000000"],
      ["dir/sub/lines.txt", 8, 10400, "43d3a169"],
      ["dir/raw.bin", 0, 16, "7d9789c9"],
    ]);
    expect(zip.entries.filter((e) => e.isDirectory).map((e) => e.name)).toEqual(["dir/", "dir/sub/"]);
    expect(zip.centralDirectoryOffset).toBeGreaterThan(0);
  });

  it("reads stored and deflated entries", async () => {
    const source = await fileSource(fixture("plain.zip"));
    const zip = await openZip(source);
    const hello = zip.find("dir/hello.txt");
    const lines = zip.find("dir/sub/lines.txt");
    if (!hello || !lines) throw new Error("entries missing");
    expect((await zip.read(hello)).toString()).toBe("hello, zip\n");
    const text = (await zip.read(lines)).toString();
    expect(text.length).toBe(10400);
    expect(text.split("\n")[399]).toBe("compressible line of text");
    await source.close?.();
  });

  it("follows the ZIP64 end record written by zip -fz", async () => {
    const zip = await openZip(bufferSource(await readFile(fixture("zip64.zip"))));
    expect(zip.entries.map((e) => e.name)).toEqual([
      "dir/",
      "dir/hello.txt",
      "dir/sub/",
      "dir/sub/lines.txt",
      "dir/raw.bin",
    ]);
    const raw = zip.find("dir/raw.bin");
    if (!raw) throw new Error("entry missing");
    expect((await zip.read(raw)).subarray(4).toString()).toBe("stored bytes");
  });

  it("reads entries written with data descriptors", async () => {
    const zip = await openZip(bufferSource(await readFile(fixture("streamed.zip"))));
    const entry = zip.find("-");
    if (!entry) throw new Error("entry missing");
    expect((await zip.read(entry)).length).toBe(10400);
  });

  it("reads only the tail and the central directory when opening", async () => {
    const data = await readFile(fixture("plain.zip"));
    const source = countingSource(bufferSource(data));
    await openZip(source);
    // A small archive fits in the tail read, which then also serves the central directory.
    expect(source.bytesRead).toBe(data.length);
    const big = buildZip([{ name: "a.bin", data: Buffer.alloc(300_000, 7) }]);
    const bigSource = countingSource(bufferSource(big));
    const zip = await openZip(bigSource);
    expect(bigSource.bytesRead).toBeLessThan(65_536 + 22 + 200);
    expect(zip.entries[0]?.uncompressedSize).toBe(300_000);
  });
});

describe("openZip on synthetic archives", () => {
  it("uses the local header's own name and extra lengths to find the data", async () => {
    const data = Buffer.from("payload");
    const zip = await openZip(
      bufferSource(buildZip([{ name: "x.txt", data, localExtra: Buffer.alloc(13, 0x55) }])),
    );
    const entry = zip.find("x.txt");
    if (!entry) throw new Error("entry missing");
    expect((await zip.read(entry)).toString()).toBe("payload");
  });

  it("reads ZIP64 extra fields and end records", async () => {
    const zip = await openZip(
      bufferSource(
        buildZip([{ name: "big/one.txt", data: Buffer.from("sixty-four"), zip64: true }], { zip64End: true }),
      ),
    );
    const entry = zip.find("big/one.txt");
    expect(entry?.uncompressedSize).toBe(10);
    if (!entry) throw new Error("entry missing");
    expect((await zip.read(entry)).toString()).toBe("sixty-four");
  });

  it("finds the end record behind a comment", async () => {
    const zip = await openZip(
      bufferSource(
        buildZip([{ name: "c.txt", data: Buffer.from("c") }], { comment: Buffer.alloc(60_000, 0x41) }),
      ),
    );
    expect(zip.entries.map((e) => e.name)).toEqual(["c.txt"]);
  });

  it("normalizes ./ prefixes, doubled slashes and backslashes", async () => {
    const zip = await openZip(
      bufferSource(
        buildZip([
          { name: "./a//b.txt", data: Buffer.from("1") },
          { name: "win\\dir\\c.txt", data: Buffer.from("2") },
        ]),
      ),
    );
    expect(zip.entries.map((e) => e.name)).toEqual(["a/b.txt", "win/dir/c.txt"]);
  });

  it.each([
    ["../evil.txt"],
    ["a/../../evil.txt"],
    ["/etc/passwd"],
    ["..\\..\\evil.txt"],
    ["C:\\Windows\\evil.txt"],
    ["ok\u0000.txt"],
  ])("rejects the escaping name %j", async (name) => {
    await expectReason(openZip(bufferSource(buildZip([{ name, data: Buffer.from("x") }]))), "unsafe_entry");
  });

  it("refuses entries whose declared size passes the bound", async () => {
    const zip = await openZip(
      bufferSource(buildZip([{ name: "huge.bin", data: Buffer.from("tiny"), declaredSize: 0xfffffff0 }])),
    );
    const entry = zip.find("huge.bin");
    if (!entry) throw new Error("entry missing");
    await expectReason(zip.read(entry), "limit_exceeded");
    await expectReason(zip.read(entry, 3), "limit_exceeded");
  });

  it("refuses a zip bomb by its compression ratio", async () => {
    const zip = await openZip(
      bufferSource(buildZip([{ name: "bomb.txt", data: Buffer.alloc(20 * 1024 * 1024), deflate: true }])),
    );
    const entry = zip.find("bomb.txt");
    if (!entry) throw new Error("entry missing");
    expect(entry.compressedSize).toBeLessThan(30_000);
    await expectReason(zip.read(entry), "limit_exceeded");
  });

  it("stops inflating at the declared size when the data lies about it", async () => {
    const data = Buffer.alloc(100_000, 1);
    const zip = await openZip(
      bufferSource(buildZip([{ name: "liar.bin", data, deflate: true, declaredSize: 1000 }])),
    );
    const entry = zip.find("liar.bin");
    if (!entry) throw new Error("entry missing");
    await expectReason(zip.read(entry), "corrupt");
  });

  it("detects a CRC mismatch", async () => {
    const zip = await openZip(
      bufferSource(buildZip([{ name: "x", data: Buffer.from("abc"), declaredCrc: 1234 }])),
    );
    const entry = zip.find("x");
    if (!entry) throw new Error("entry missing");
    await expectReason(zip.read(entry), "corrupt");
  });

  it("detects broken deflate data", async () => {
    const body = deflateRawSync(Buffer.from("hello hello hello"));
    const archive = buildZip([{ name: "d.txt", data: Buffer.from("hello hello hello"), deflate: true }]);
    const at = archive.indexOf(body);
    archive.fill(0xff, at, at + body.length);
    const zip = await openZip(bufferSource(archive));
    const entry = zip.find("d.txt");
    if (!entry) throw new Error("entry missing");
    await expectReason(zip.read(entry), "corrupt");
  });

  it("rejects a truncated central directory", async () => {
    const archive = buildZip([
      { name: "a", data: Buffer.from("a") },
      { name: "b", data: Buffer.from("b") },
    ]);
    await expectReason(
      openZip(bufferSource(buildZip([{ name: "a", data: Buffer.from("a") }], { entryCountOverride: 2 }))),
      "corrupt",
    );
    await expectReason(openZip(bufferSource(archive.subarray(0, archive.length - 30))), "corrupt");
  });

  it("rejects end records pointing outside the file", async () => {
    const entries = [{ name: "a", data: Buffer.from("a") }];
    await expectReason(openZip(bufferSource(buildZip(entries, { cdOffsetOverride: 0x7ffffff0 }))), "corrupt");
    await expectReason(openZip(bufferSource(buildZip(entries, { cdSizeOverride: 0x10000 }))), "corrupt");
    await expectReason(openZip(bufferSource(buildZip(entries, { cdOffsetOverride: 3 }))), "corrupt");
  });

  it("rejects local header offsets that point past the entries", async () => {
    await expectReason(
      openZip(bufferSource(buildZip([{ name: "a", data: Buffer.from("a"), localHeaderOffset: 0x40000000 }]))),
      "corrupt",
    );
  });

  it("refuses more entries than the bound", async () => {
    await expectReason(
      openZip(
        bufferSource(
          buildZip([{ name: "a", data: Buffer.from("a") }], {
            zip64End: true,
            entryCountOverride: 10_000_000,
          }),
        ),
      ),
      "limit_exceeded",
    );
  });

  it("rejects files that are not zip archives", async () => {
    await expectReason(openZip(bufferSource(Buffer.alloc(10))), "corrupt");
    await expectReason(openZip(bufferSource(Buffer.alloc(100_000, 0x20))), "corrupt");
  });
});
