import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { openCompoundFile } from "../../src/cfb/index.ts";
import { InspectError } from "../../src/errors.ts";
import { type ByteSource, bufferSource } from "../../src/source.ts";
import { type BuiltStream, buildCompoundFile, sectorOffset, setFatEntry } from "./cfb-builder.ts";

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/windows/${name}`, import.meta.url));

function patterned(length: number, seed: number): Buffer {
  const data = Buffer.alloc(length);
  for (let i = 0; i < length; i++) data[i] = (i * 31 + seed) & 0xff;
  return data;
}

async function reasonOf(action: () => Promise<unknown>): Promise<string> {
  try {
    await action();
  } catch (error) {
    if (error instanceof InspectError) return `${error.reason}: ${error.message}`;
    throw error;
  }
  return "no error";
}

async function readAll(file: Buffer): Promise<Map<string, Buffer>> {
  const cfb = await openCompoundFile(bufferSource(file));
  const out = new Map<string, Buffer>();
  for (const entry of cfb.members()) out.set(entry.name, await cfb.read(entry));
  return out;
}

/** Counts what a reader asks for, to prove it reads only the sectors it needs. */
function countingSource(data: Buffer): ByteSource & { bytesRead: number } {
  const inner = bufferSource(data);
  const counted = {
    size: inner.size,
    bytesRead: 0,
    read(offset: number, length: number) {
      counted.bytesRead += length;
      return inner.read(offset, length);
    },
  };
  return counted;
}

const sample: BuiltStream[] = [
  { name: "empty", data: Buffer.alloc(0) },
  { name: "tiny", data: patterned(10, 1) },
  { name: "mini-edge", data: patterned(4095, 2) },
  { name: "regular-edge", data: patterned(4096, 3) },
  { name: "regular", data: patterned(70_000, 4) },
];

describe("openCompoundFile", () => {
  it("lists and reads the streams of a wixl MSI (512-byte sectors)", async () => {
    const cfb = await openCompoundFile(bufferSource(fixture("demo-signed.msi")));
    expect(cfb.header.majorVersion).toBe(3);
    expect(cfb.header.sectorSize).toBe(512);
    const names = cfb.members().map((entry) => entry.name);
    expect(names).toHaveLength(22);
    expect(names).toContain("\u0005DigitalSignature");
    const summary = cfb.find("\u0005SummaryInformation");
    expect(summary?.size).toBe(436);
    expect((await cfb.read(summary as NonNullable<typeof summary>)).subarray(0, 4).toString("hex")).toBe(
      "feff0000",
    );
    const signature = cfb.find("\u0005DigitalSignature");
    const der = await cfb.read(signature as NonNullable<typeof signature>);
    expect(der.length).toBe(signature?.size);
    expect(der.subarray(0, 2).toString("hex")).toBe("3082");
  });

  it.each([3, 4] as const)(
    "round-trips mini and regular streams with version %i sectors",
    async (version) => {
      const { file } = buildCompoundFile(sample, { version });
      const cfb = await openCompoundFile(bufferSource(file));
      expect(cfb.header.sectorSize).toBe(version === 3 ? 512 : 4096);
      const read = await readAll(file);
      for (const stream of sample) expect(read.get(stream.name)?.equals(stream.data)).toBe(true);
    },
  );

  it("follows the DIFAT chain past the 109 FAT sectors of the header", async () => {
    const { file, layout } = buildCompoundFile(sample, { minFatSectors: 240 });
    expect(layout.difatSectors).toHaveLength(2);
    const read = await readAll(file);
    expect(read.get("regular")?.equals(patterned(70_000, 4))).toBe(true);
  });

  it("reads only the sectors a small stream needs", async () => {
    const big = { name: "big", data: patterned(2_000_000, 5) };
    const { file } = buildCompoundFile([big, { name: "small", data: patterned(100, 6) }]);
    const source = countingSource(file);
    const cfb = await openCompoundFile(source);
    const small = cfb.find("small");
    expect((await cfb.read(small as NonNullable<typeof small>)).equals(patterned(100, 6))).toBe(true);
    expect(source.bytesRead).toBeLessThan(8 * 1024);
  });

  it("refuses a stream above the caller's bound before reading it", async () => {
    const { file } = buildCompoundFile(sample);
    const cfb = await openCompoundFile(bufferSource(file));
    const regular = cfb.find("regular");
    expect(await reasonOf(() => cfb.read(regular as NonNullable<typeof regular>, 1000))).toBe(
      "limit_exceeded: stream of 70000 bytes is over 1000",
    );
  });
});

describe("openCompoundFile on hostile input", () => {
  it("detects a loop in a stream chain", async () => {
    const { file, layout } = buildCompoundFile(sample);
    const start = layout.starts.get("regular") as number;
    setFatEntry(file, layout, start + 3, start + 1);
    const cfb = await openCompoundFile(bufferSource(file));
    const regular = cfb.find("regular");
    expect(await reasonOf(() => cfb.read(regular as NonNullable<typeof regular>))).toBe(
      `corrupt: compound file: stream chain loops at sector ${start + 1}`,
    );
  });

  it("detects a chain that ends early or points outside the file", async () => {
    const built = buildCompoundFile(sample);
    const start = built.layout.starts.get("regular") as number;
    setFatEntry(built.file, built.layout, start + 2, 0xfffffffe);
    const cfb = await openCompoundFile(bufferSource(built.file));
    const regular = cfb.find("regular");
    expect(await reasonOf(() => cfb.read(regular as NonNullable<typeof regular>))).toBe(
      "corrupt: compound file: stream chain ends after 3 sectors",
    );
    setFatEntry(built.file, built.layout, start + 2, 0x00ffffff);
    expect(await reasonOf(() => cfb.read(regular as NonNullable<typeof regular>))).toBe(
      "corrupt: compound file: stream chain points at sector 16777215",
    );
  });

  it("detects loops in the directory, DIFAT and mini chains", async () => {
    const dir = buildCompoundFile(sample);
    const last = dir.layout.directorySectors.at(-1) as number;
    setFatEntry(dir.file, dir.layout, last, dir.layout.directorySectors[0] as number);
    expect(await reasonOf(() => openCompoundFile(bufferSource(dir.file)))).toMatch(/directory chain loops/);

    const difat = buildCompoundFile(sample, { minFatSectors: 240 });
    const first = difat.layout.difatSectors[0] as number;
    difat.file.writeUInt32LE(first, sectorOffset(difat.layout, first) + 127 * 4);
    expect(await reasonOf(() => openCompoundFile(bufferSource(difat.file)))).toBe(
      "corrupt: compound file: DIFAT chain loops",
    );

    const mini = buildCompoundFile(sample);
    const tinyStart = mini.layout.starts.get("mini-edge") as number;
    const miniFat = sectorOffset(mini.layout, mini.layout.miniFatSectors[0] as number);
    mini.file.writeUInt32LE(tinyStart, miniFat + (tinyStart + 5) * 4);
    const cfb = await openCompoundFile(bufferSource(mini.file));
    const edge = cfb.find("mini-edge");
    expect(await reasonOf(() => cfb.read(edge as NonNullable<typeof edge>))).toMatch(/mini chain loops/);
  });

  it("detects a cycle in the directory tree", async () => {
    const { file, layout } = buildCompoundFile(sample);
    const dirOffset = sectorOffset(layout, layout.directorySectors[0] as number);
    file.writeUInt32LE(1, dirOffset + 2 * 128 + 0x48); // entry 2's right sibling back to entry 1
    const cfb = await openCompoundFile(bufferSource(file));
    expect(await reasonOf(async () => cfb.members())).toBe(
      "corrupt: compound file: directory tree revisits entry 1",
    );
  });

  it("bounds declared counts and sizes by the file size", async () => {
    const base = buildCompoundFile(sample).file;
    const withFat = Buffer.from(base);
    withFat.writeUInt32LE(0x7fffffff, 0x2c);
    expect(await reasonOf(() => openCompoundFile(bufferSource(withFat)))).toMatch(/2147483647 FAT sectors/);
    const withSize = Buffer.from(base);
    const { layout } = buildCompoundFile(sample);
    const dirOffset = sectorOffset(layout, layout.directorySectors[0] as number);
    withSize.writeUInt32LE(0x7fffffff, dirOffset + 5 * 128 + 0x78);
    const cfb = await openCompoundFile(bufferSource(withSize));
    const regular = cfb.find("regular");
    expect(await reasonOf(() => cfb.read(regular as NonNullable<typeof regular>, 2 ** 40))).toMatch(
      /stream of 2147483647 bytes in a file of/,
    );
  });

  it.each([
    ["a short file", Buffer.alloc(100)],
    ["a bad signature", Buffer.alloc(1024)],
  ])("refuses %s", async (_label, file) => {
    expect(await reasonOf(() => openCompoundFile(bufferSource(file)))).toMatch(/^corrupt: compound file/);
  });

  it("refuses a wrong sector shift for the version", async () => {
    const { file } = buildCompoundFile(sample);
    file.writeUInt16LE(12, 0x1e);
    expect(await reasonOf(() => openCompoundFile(bufferSource(file)))).toBe(
      "corrupt: compound file: sector shift 12 for version 3",
    );
  });

  it("refuses every truncation of a real MSI with an InspectError", async () => {
    const msi = fixture("demo.msi");
    for (let length = 0; length < msi.length; length += 97) {
      const result = await reasonOf(async () => {
        const cfb = await openCompoundFile(bufferSource(msi.subarray(0, length)));
        for (const entry of cfb.members()) await cfb.read(entry);
      });
      expect(result).toMatch(/^corrupt: /);
    }
  });
});
