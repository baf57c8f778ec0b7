import { createHash, randomBytes } from "node:crypto";
import { readdirSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { beforeEach, describe, expect, it } from "vitest";
import { tempDir } from "../../../test/helpers/temp-dirs.ts";
import { LocalStorageDriver } from "./local-driver.ts";
import { ProxyLinks } from "./proxy-links.ts";
import { UrlSigner } from "./signed-url.ts";
import { ObjectTooLargeError, StorageKeyError } from "./storage-driver.ts";

let root: string;
let driver: LocalStorageDriver;
const signer = new UrlSigner("s".repeat(40));

beforeEach(() => {
  root = tempDir("storage");
  driver = new LocalStorageDriver(root, new ProxyLinks(signer, "http://files.test", null));
});

function chunks(...parts: (Buffer | Error)[]): Readable {
  return Readable.from(
    (async function* () {
      for (const part of parts) {
        if (part instanceof Error) throw part;
        yield part;
      }
    })(),
  );
}

describe("LocalStorageDriver", () => {
  it("lists on when objects are deleted while the listing runs, leaving them out", async () => {
    for (const name of ["a", "b", "c", "d"])
      await driver.put(`exports/9/${name}.json`, chunks(Buffer.from(name)));
    const listed: string[] = [];
    for await (const object of driver.list("exports/")) {
      if (listed.length === 0) {
        for (const name of ["a", "b", "c", "d"]) {
          if (`exports/9/${name}.json` !== object.key) await driver.delete(`exports/9/${name}.json`);
        }
      }
      listed.push(object.key);
    }
    expect(listed).toHaveLength(1);
  });

  it("stores a stream and reports its size and SHA-256", async () => {
    const data = randomBytes(300_000);
    const stored = await driver.put("builds/1/app.apk", chunks(data.subarray(0, 1000), data.subarray(1000)));
    expect(stored).toEqual({
      key: "builds/1/app.apk",
      size: 300_000,
      sha256: createHash("sha256").update(data).digest("hex"),
    });
    expect(await driver.stat("builds/1/app.apk")).toMatchObject({ key: "builds/1/app.apk", size: 300_000 });
  });

  it("leaves nothing behind when the stream fails midway", async () => {
    await expect(
      driver.put("builds/2/app.apk", chunks(Buffer.from("partial"), new Error("client went away"))),
    ).rejects.toThrow("client went away");
    expect(await driver.stat("builds/2/app.apk")).toBeNull();
    expect(readdirSync(path.join(root, ".tmp"))).toEqual([]);
  });

  it("aborts a write past maxBytes", async () => {
    await expect(
      driver.put("big/file", chunks(Buffer.alloc(600), Buffer.alloc(600)), { maxBytes: 1000 }),
    ).rejects.toBeInstanceOf(ObjectTooLargeError);
    expect(await driver.stat("big/file")).toBeNull();
  });

  it.each(["../escape", "a/../../b", "/abs", "a//b", ".hidden", "a/./b", "a\\b", ""])(
    "refuses the key %j",
    async (key) => {
      await expect(driver.put(key, chunks(Buffer.from("x")))).rejects.toBeInstanceOf(StorageKeyError);
    },
  );

  it("reads byte ranges", async () => {
    await driver.put("r/file.txt", chunks(Buffer.from("0123456789")));
    expect(await text(await driver.read("r/file.txt", { start: 2, end: 5 }))).toBe("2345");
    expect(await text(await driver.read("r/file.txt"))).toBe("0123456789");
  });

  it("lists by prefix, skipping temporary files, and deletes", async () => {
    await driver.put("org1/a.bin", chunks(Buffer.from("a")));
    await driver.put("org1/sub/b.bin", chunks(Buffer.from("bb")));
    await driver.put("org2/c.bin", chunks(Buffer.from("ccc")));
    const keys: string[] = [];
    for await (const item of driver.list("org1/")) keys.push(`${item.key}:${item.size}`);
    expect(keys.sort()).toEqual(["org1/a.bin:1", "org1/sub/b.bin:2"]);
    await driver.delete("org1/a.bin");
    await driver.delete("org1/never-existed");
    expect(await driver.stat("org1/a.bin")).toBeNull();
  });

  it("signs URLs that verify only unchanged and unexpired", async () => {
    const url = new URL(
      await driver.signedUrl("org1/a.bin", { expiresInSeconds: 60, fileName: "My App.apk" }),
    );
    expect(url.origin + url.pathname).toBe("http://files.test/api/files/org1/a.bin");
    const expires = Number(url.searchParams.get("expires"));
    const signature = url.searchParams.get("signature") ?? "";
    expect(signer.verify("org1/a.bin", expires, "My App.apk", "", signature)).toBe(true);
    expect(signer.verify("org1/b.bin", expires, "My App.apk", "", signature)).toBe(false);
    expect(signer.verify("org1/a.bin", expires, "Other.apk", "", signature)).toBe(false);
    expect(signer.verify("org1/a.bin", expires + 1, "My App.apk", "", signature)).toBe(false);
    expect(signer.verify("org1/a.bin", expires, "My App.apk", "", signature, (expires + 1) * 1000)).toBe(
      false,
    );
  });

  it("passes its own health probe", async () => {
    await expect(driver.checkHealth()).resolves.toBeUndefined();
  });
});

describe("LocalStorageDriver.deleteStaleTemporaryFiles", () => {
  it("removes only .part files older than the cut-off", async () => {
    const { mkdirSync, utimesSync, writeFileSync } = await import("node:fs");
    const tempDir = path.join(root, ".tmp");
    mkdirSync(tempDir, { recursive: true });
    writeFileSync(path.join(tempDir, "old.part"), "x");
    writeFileSync(path.join(tempDir, "new.part"), "x");
    writeFileSync(path.join(tempDir, "other"), "x");
    const hourAgo = new Date(Date.now() - 3600_000);
    utimesSync(path.join(tempDir, "old.part"), hourAgo, hourAgo);
    expect(await driver.deleteStaleTemporaryFiles(new Date(Date.now() - 60_000))).toBe(1);
    expect(readdirSync(tempDir).sort()).toEqual(["new.part", "other"]);
  });

  it("is a no-op before the first write", async () => {
    expect(await driver.deleteStaleTemporaryFiles(new Date())).toBe(0);
  });
});
