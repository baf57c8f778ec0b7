import { createHash, randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import {
  SourceStreamError,
  type StorageDriver,
  StorageKeyError,
} from "../../src/platform/storage/storage-driver.ts";

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A stream that yields `parts` and then fails with `failure`, like a client going away. */
function failingAfter(parts: Buffer[], failure: Error): Readable {
  return Readable.from(
    (async function* () {
      for (const part of parts) yield part;
      throw failure;
    })(),
  );
}

async function keysUnder(driver: StorageDriver, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of driver.list(prefix)) keys.push(object.key);
  return keys.sort();
}

/**
 * What every storage driver must do, run against each driver and its real peer: the rest of the
 * server relies on exactly this (streamed writes that appear whole or not at all, ranged reads,
 * listing by prefix, links that need no header).
 */
export function describeStorageContract(name: string, driver: () => StorageDriver): void {
  describe(`${name}: the storage contract`, () => {
    const run = `contract-${randomBytes(4).toString("hex")}`;

    it("stores a stream and reads it whole and in ranges", async () => {
      const data = randomBytes(3 * 1024 * 1024 + 123);
      const key = `${run}/whole/build.bin`;
      const stored = await driver().put(key, Readable.from([data.subarray(0, 1000), data.subarray(1000)]));
      expect(stored).toEqual({
        key,
        size: data.length,
        sha256: createHash("sha256").update(data).digest("hex"),
      });
      expect((await bytesOf(await driver().read(key))).equals(data)).toBe(true);
      for (const [start, end] of [
        [0, 0],
        [1_000_000, 1_000_999],
        [data.length - 1, data.length - 1],
      ] as const) {
        expect(
          (await bytesOf(await driver().read(key, { start, end }))).equals(data.subarray(start, end + 1)),
        ).toBe(true);
      }
      expect(await driver().stat(key)).toMatchObject({ key, size: data.length });
    });

    it("leaves nothing behind when the source fails or the write passes its limit", async () => {
      const failing = `${run}/failing/build.bin`;
      await expect(
        driver().put(failing, failingAfter([randomBytes(64 * 1024)], new Error("client went away"))),
      ).rejects.toBeInstanceOf(SourceStreamError);
      const large = `${run}/large/build.bin`;
      await expect(
        driver().put(large, Readable.from([randomBytes(200_000)]), { maxBytes: 100_000 }),
      ).rejects.toThrow("exceeds 100000 bytes");
      expect(await driver().stat(failing)).toBeNull();
      expect(await driver().stat(large)).toBeNull();
      expect(await keysUnder(driver(), `${run}/failing/`)).toEqual([]);
    });

    it("lists by prefix, deletes idempotently, and answers missing objects", async () => {
      for (const key of [`${run}/list/a`, `${run}/list/b/c`, `${run}/other/d`]) {
        await driver().put(key, Readable.from([Buffer.from(key)]));
      }
      expect(await keysUnder(driver(), `${run}/list/`)).toEqual([`${run}/list/a`, `${run}/list/b/c`]);
      await driver().delete(`${run}/list/a`);
      await driver().delete(`${run}/list/a`);
      expect(await keysUnder(driver(), `${run}/list/`)).toEqual([`${run}/list/b/c`]);
      expect(await driver().stat(`${run}/missing`)).toBeNull();
      await expect(driver().read(`${run}/missing`)).rejects.toThrow();
    });

    it("refuses keys that could leave its place", async () => {
      for (const key of ["../escape", "a/../../b", "/absolute", ""]) {
        await expect(driver().put(key, Readable.from([Buffer.from("x")]))).rejects.toBeInstanceOf(
          StorageKeyError,
        );
      }
    });

    it("hands out links that need no header, with the file name and type, and Range", async () => {
      const data = randomBytes(50_000);
      const key = `${run}/linked/build.ipa`;
      await driver().put(key, Readable.from([data]));
      const url = await driver().signedUrl(key, {
        expiresInSeconds: 60,
        fileName: "Field Notes 1.0.ipa",
        contentType: "application/octet-stream",
      });
      if (!driver().servesDirectly) {
        expect(new URL(url).pathname).toMatch(/^\/api\/files\//);
        return;
      }
      const whole = await fetch(url);
      expect(whole.status).toBe(200);
      expect(whole.headers.get("content-disposition")).toContain("Field%20Notes%201.0.ipa");
      expect(whole.headers.get("content-type")).toBe("application/octet-stream");
      expect(Buffer.from(await whole.arrayBuffer()).equals(data)).toBe(true);
      const part = await fetch(url, { headers: { range: "bytes=100-199" } });
      expect(part.status).toBe(206);
      expect(Buffer.from(await part.arrayBuffer()).equals(data.subarray(100, 200))).toBe(true);
    });

    it("answers its health check", async () => {
      await expect(driver().checkHealth()).resolves.toBeUndefined();
    });
  });
}
