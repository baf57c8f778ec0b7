import { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { describe, expect, it } from "vitest";
import { meteredPut } from "./metered-put.ts";
import { ObjectTooLargeError, SourceStreamError } from "./storage-driver.ts";

const mib = 1024 * 1024;

/** A source far larger than any stream buffer, so a reader that stops would leave it waiting. */
function largeSource(failAfterMib?: number): Readable {
  return Readable.from(
    (async function* () {
      for (let i = 0; i < 64; i++) {
        if (i === failAfterMib) throw new Error("client went away");
        yield Buffer.alloc(mib);
      }
    })(),
  );
}

/** A driver's write that reads `bytes` and then fails as storage would (without touching the stream). */
function failingStorage(bytes: number) {
  return async (_key: string, stream: Readable) => {
    let read = 0;
    for await (const chunk of stream) {
      read += (chunk as Buffer).length;
      if (read >= bytes) throw new Error("storage refused the write");
    }
  };
}

describe("meteredPut", () => {
  it("blames storage, not the source, when the write fails, and does not wait for the rest", async () => {
    const put = meteredPut("k", largeSource(), {}, failingStorage(2 * mib));
    await expect(put).rejects.toThrow("storage refused the write");
    await expect(put).rejects.not.toBeInstanceOf(SourceStreamError);
  });

  it("settles when the write fails before reading anything", async () => {
    const put = meteredPut("k", largeSource(), {}, async () => {
      throw new Error("no such bucket");
    });
    await expect(put).rejects.toThrow("no such bucket");
  });

  it("reports a failing source as SourceStreamError", async () => {
    const put = meteredPut("k", largeSource(3), {}, (_key, stream) =>
      pipeline(stream, new Writable({ write: (_chunk, _encoding, done) => done() })),
    );
    await expect(put).rejects.toBeInstanceOf(SourceStreamError);
    await expect(put).rejects.toThrow("client went away");
  });

  it("reports the limit as ObjectTooLargeError", async () => {
    const put = meteredPut("k", largeSource(), { maxBytes: 5 * mib }, (_key, stream) =>
      pipeline(stream, new Writable({ write: (_chunk, _encoding, done) => done() })),
    );
    await expect(put).rejects.toBeInstanceOf(ObjectTooLargeError);
  });
});
