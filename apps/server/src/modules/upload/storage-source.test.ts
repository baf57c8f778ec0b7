import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { InspectError } from "@tarmac/inspector";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../test/helpers/temp-dirs.ts";
import { LocalStorageDriver } from "../../platform/storage/local-driver.ts";
import { ProxyLinks } from "../../platform/storage/proxy-links.ts";
import { UrlSigner } from "../../platform/storage/signed-url.ts";
import { storageSource } from "./storage-source.ts";

describe("storageSource", () => {
  it("reads any range across block boundaries, in few storage reads", async () => {
    const driver = new LocalStorageDriver(
      tempDir("source"),
      new ProxyLinks(new UrlSigner("k".repeat(40)), "http://x.test", null),
    );
    const data = randomBytes(700_000);
    await driver.put("a/b", Readable.from([data]));
    let reads = 0;
    const counting = Object.assign(Object.create(driver), {
      read: (key: string, range?: { start: number; end: number }) => {
        reads += 1;
        return driver.read(key, range);
      },
    });
    const source = storageSource(counting, "a/b", data.length);
    for (const [offset, length] of [
      [0, 10],
      [262_140, 10],
      [5, 3],
      [699_990, 10],
      [100, 0],
      [1000, 600_000],
    ] as const) {
      expect((await source.read(offset, length)).equals(data.subarray(offset, offset + length))).toBe(true);
    }
    expect(reads).toBeLessThanOrEqual(5);
    await expect(source.read(699_999, 2)).rejects.toBeInstanceOf(InspectError);
  });
});
