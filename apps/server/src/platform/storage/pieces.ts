import { Readable } from "node:stream";
import { ObjectTooLargeError, SourceStreamError } from "./storage-driver.ts";

/**
 * Hands a stream to `store` in pieces of at most `pieceBytes`, one after another: each piece is
 * a stream of its own that ends at the piece's size, and the next one begins only once `store`
 * has kept the previous one. Drivers write whole objects or nothing, so this is what lets a
 * long request that breaks off keep what it delivered, up to the last whole piece. Nothing is
 * held beyond the chunk in hand; the source is read only as fast as storage takes it.
 *
 * At most `maxBytes` are handed on; a source with more fails with ObjectTooLargeError after
 * those are kept. A failing source fails the piece under way (its driver discards it) or, between
 * pieces, the call itself with a SourceStreamError. Answers the bytes handed on.
 */
export async function storeInPieces(
  source: AsyncIterable<Uint8Array>,
  options: { pieceBytes: number; maxBytes: number },
  store: (piece: Readable, pieceBytes: number) => Promise<void>,
): Promise<number> {
  const iterator = source[Symbol.asyncIterator]();
  let held: Buffer | null = null;
  const pull = async (): Promise<Buffer | null> => {
    if (held) {
      const chunk = held;
      held = null;
      return chunk;
    }
    for (;;) {
      const next = await iterator.next();
      if (next.done) return null;
      if (next.value.length > 0)
        return Buffer.from(next.value.buffer, next.value.byteOffset, next.value.length);
    }
  };
  const peek = async (): Promise<boolean> => {
    try {
      held = await pull();
    } catch (error) {
      throw new SourceStreamError(error);
    }
    return held !== null;
  };
  let handed = 0;
  while (handed < options.maxBytes && (await peek())) {
    const room = Math.min(options.pieceBytes, options.maxBytes - handed);
    let taken = 0;
    const piece = Readable.from(
      (async function* () {
        while (taken < room) {
          const chunk = await pull();
          if (!chunk) return;
          const used = chunk.subarray(0, room - taken);
          if (used.length < chunk.length) held = chunk.subarray(used.length);
          taken += used.length;
          yield used;
        }
      })(),
      { objectMode: false },
    );
    await store(piece, room);
    // A store that read nothing would see the same bytes again, forever.
    if (taken === 0) throw new Error("a piece was stored without being read");
    handed += taken;
  }
  if (handed >= options.maxBytes && (await peek())) throw new ObjectTooLargeError(options.maxBytes);
  return handed;
}
