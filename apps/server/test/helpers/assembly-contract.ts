import { createHash, randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import type { Assembly, StoredPiece } from "../../src/platform/storage/assembly.ts";
import { SourceStreamError, type StorageDriver } from "../../src/platform/storage/storage-driver.ts";

const mib = 1024 * 1024;

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function keysUnder(driver: StorageDriver, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of driver.list(prefix)) keys.push(object.key);
  return keys;
}

/** 256 KiB chunks, as a request body arrives. */
const arriving = (bytes: Buffer) =>
  Readable.from(
    Array.from({ length: Math.ceil(bytes.length / (256 * 1024)) }, (_, index) =>
      bytes.subarray(index * 256 * 1024, (index + 1) * 256 * 1024),
    ),
  );

/**
 * Keeps pieces the way the resumable upload service does: a piece that took in the ones before
 * it replaces their records, and their own objects are deleted.
 */
function pieceKeeper(driver: () => StorageDriver, assembly: Assembly, total: number) {
  let pieces: StoredPiece[] = [];
  return {
    pieces: () => pieces,
    end: () => pieces.reduce((sum, piece) => sum + piece.size, 0),
    async store(bytes: Buffer | Readable, maxBytes: number) {
      const body = Buffer.isBuffer(bytes) ? arriving(bytes) : bytes;
      const piece = { offset: this.end(), body, maxBytes, totalBytes: total };
      const stored = await driver().storePiece(assembly, piece, pieces);
      const replaced = pieces.filter((kept) => kept.offset >= stored.offset);
      for (const old of replaced)
        if (old.objectKey && old.objectKey !== stored.objectKey) await driver().delete(old.objectKey);
      pieces = [...pieces.filter((kept) => kept.offset < stored.offset), stored];
      return stored;
    },
  };
}

/**
 * What resumable uploads rely on in every driver: an object assembled from pieces of any size
 * over many calls, a failed piece that leaves the kept ones intact, nothing visible before the
 * end, no copy of the bytes left behind, and giving up that leaves nothing.
 */
export function describeAssemblyContract(name: string, driver: () => StorageDriver): void {
  describe(`${name}: assembling an object from pieces`, () => {
    const run = `assembly-${randomBytes(4).toString("hex")}`;

    it("assembles uneven pieces byte for byte, keeping the kept ones when one fails", async () => {
      // Small pieces (a request that ended early), a failed one, and a large last one: on S3
      // the small ones wait as objects and the last takes them in as parts of at least 5 MiB.
      const data = randomBytes(3 * mib + 1000 + 100_000 + 12 * mib + 7);
      const key = `${run}/builds/whole`;
      const scratch = `${run}/uploads/whole/`;
      const assembly = await driver().startAssembly(key, scratch);
      const keeper = pieceKeeper(driver, assembly, data.length);
      await keeper.store(data.subarray(0, 3 * mib + 1000), 3 * mib + 1000);
      const failing = Readable.from(
        (async function* () {
          yield data.subarray(keeper.end(), keeper.end() + 64 * 1024);
          throw new Error("client went away");
        })(),
      );
      await expect(keeper.store(failing, 2 * mib)).rejects.toBeInstanceOf(SourceStreamError);
      expect(keeper.end()).toBe(3 * mib + 1000);
      await keeper.store(data.subarray(keeper.end(), keeper.end() + 100_000), 100_000);
      expect(await driver().stat(key)).toBeNull();
      await keeper.store(data.subarray(keeper.end()), data.length - keeper.end());
      expect(keeper.end()).toBe(data.length);

      await driver().completeAssembly(assembly, keeper.pieces());
      const back = await bytesOf(await driver().read(key));
      expect(back.length).toBe(data.length);
      expect(createHash("sha256").update(back).digest("hex")).toBe(
        createHash("sha256").update(data).digest("hex"),
      );
      const range = await bytesOf(await driver().read(key, { start: 3 * mib, end: 3 * mib + 99 }));
      expect(range.equals(data.subarray(3 * mib, 3 * mib + 100))).toBe(true);
      expect(await keysUnder(driver(), scratch)).toEqual([]);
    }, 60_000);

    it("gives an assembly up without leaving the object or its pieces", async () => {
      const key = `${run}/builds/given-up`;
      const scratch = `${run}/uploads/given-up/`;
      const assembly = await driver().startAssembly(key, scratch);
      const keeper = pieceKeeper(driver, assembly, 10 * mib);
      await keeper.store(randomBytes(300_000), 300_000);
      await driver().abortAssembly(assembly, keeper.pieces());
      expect(await driver().stat(key)).toBeNull();
      expect(await keysUnder(driver(), scratch)).toEqual([]);
    });

    it("assembles an empty object", async () => {
      const key = `${run}/builds/empty`;
      const assembly = await driver().startAssembly(key, `${run}/uploads/empty/`);
      await driver().completeAssembly(assembly, []);
      expect(await driver().stat(key)).toMatchObject({ key, size: 0 });
    });
  });
}
