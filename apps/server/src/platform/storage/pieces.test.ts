import type { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { storeInPieces } from "./pieces.ts";
import { ObjectTooLargeError } from "./storage-driver.ts";

async function collect(piece: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of piece) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A source of `total` bytes (0, 1, 2, …) in chunks of `chunk`, failing after them if asked. */
async function* source(total: number, chunk: number, failAfter = false) {
  for (let at = 0; at < total; at += chunk) {
    yield Buffer.from(Array.from({ length: Math.min(chunk, total - at) }, (_, i) => (at + i) % 251));
  }
  if (failAfter) throw new Error("connection reset");
}

describe("storeInPieces", () => {
  it("cuts chunks at piece boundaries and hands the pieces on in order", async () => {
    const pieces: Buffer[] = [];
    const handed = await storeInPieces(source(25, 7), { pieceBytes: 10, maxBytes: 100 }, async (piece) => {
      pieces.push(await collect(piece));
    });
    expect(handed).toBe(25);
    expect(pieces.map((piece) => piece.length)).toEqual([10, 10, 5]);
    expect([...Buffer.concat(pieces)]).toEqual(Array.from({ length: 25 }, (_, i) => i % 251));
  });

  it("keeps the whole pieces of a source that fails and fails the piece under way", async () => {
    const kept: number[] = [];
    await expect(
      storeInPieces(source(25, 4, true), { pieceBytes: 10, maxBytes: 100 }, async (piece) => {
        kept.push((await collect(piece)).length);
      }),
    ).rejects.toThrow("connection reset");
    expect(kept).toEqual([10, 10]);
  });

  it("hands on at most maxBytes and refuses more", async () => {
    const sizes: number[] = [];
    const store = async (piece: Readable) => {
      sizes.push((await collect(piece)).length);
    };
    await expect(
      storeInPieces(source(30, 8), { pieceBytes: 10, maxBytes: 24 }, store),
    ).rejects.toBeInstanceOf(ObjectTooLargeError);
    expect(sizes).toEqual([10, 10, 4]);
    sizes.length = 0;
    expect(await storeInPieces(source(24, 8), { pieceBytes: 10, maxBytes: 24 }, store)).toBe(24);
    expect(sizes).toEqual([10, 10, 4]);
  });
});
