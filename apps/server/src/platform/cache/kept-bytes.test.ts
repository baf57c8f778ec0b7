import { describe, expect, it } from "vitest";
import { keptBytes } from "./kept-bytes.ts";

/** True when the Buffer is all of its memory, not a slice of a slab shared with others. */
const ownsItsMemory = (bytes: Buffer) =>
  bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.byteLength;

describe("keptBytes", () => {
  it("encodes text as UTF-8 in memory of its own", () => {
    const pooled = Buffer.from('{"title":"Zürich — 東京"}');
    expect(ownsItsMemory(pooled)).toBe(false);
    const kept = keptBytes('{"title":"Zürich — 東京"}');
    expect(ownsItsMemory(kept)).toBe(true);
    expect(kept.equals(pooled)).toBe(true);
    expect(keptBytes("").byteLength).toBe(0);
  });

  it("joins pieces of bytes in order in memory of its own", () => {
    const kept = keptBytes([Buffer.from("[{"), new Uint8Array([0x22, 0x22]), Buffer.from(":1}]")]);
    expect(kept.toString()).toBe('[{"":1}]');
    expect(ownsItsMemory(kept)).toBe(true);
  });
});
