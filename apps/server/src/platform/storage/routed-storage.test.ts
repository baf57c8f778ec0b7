import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../test/helpers/temp-dirs.ts";
import { LocalStorageDriver } from "./local-driver.ts";
import { qualifiedKey, splitKey } from "./location-keys.ts";
import { ProxyLinks } from "./proxy-links.ts";
import { RoutedStorage } from "./routed-storage.ts";
import { UrlSigner } from "./signed-url.ts";

const signer = new UrlSigner("r".repeat(40));
const local = (location: number | null) =>
  new LocalStorageDriver(tempDir("routed"), new ProxyLinks(signer, "http://files.test", location));

describe("location-qualified keys", () => {
  it("name a location, and plain keys the instance's storage", () => {
    expect(qualifiedKey(12, "orgs/3/builds/x")).toBe("loc/12/orgs/3/builds/x");
    expect(splitKey("loc/12/orgs/3/builds/x")).toEqual({ location: 12, key: "orgs/3/builds/x" });
    expect(splitKey("orgs/3/builds/x")).toEqual({ location: null, key: "orgs/3/builds/x" });
    expect(splitKey("loc/0/x").location).toBeNull();
    expect(splitKey("loc/12/").location).toBeNull();
  });
});

describe("RoutedStorage", () => {
  it("writes where it is told, and reads, lists, signs and deletes wherever a key says", async () => {
    const instance = local(null);
    const bucket = local(7);
    const storage = new RoutedStorage(instance);
    storage.useLocations({
      driverOf: async (location) => {
        if (location !== 7) throw new Error("unknown");
        return bucket;
      },
      ids: async () => [7],
    });
    const plain = await storage.put("orgs/1/builds/a", Readable.from([Buffer.from("instance")]));
    const placed = await storage.placingIn(7).put("orgs/1/builds/b", Readable.from([Buffer.from("bucket")]));
    expect(plain.key).toBe("orgs/1/builds/a");
    expect(placed.key).toBe("loc/7/orgs/1/builds/b");
    expect(await bucket.stat("orgs/1/builds/b")).not.toBeNull();
    expect(await instance.stat("orgs/1/builds/b")).toBeNull();
    expect(await text(await storage.read(placed.key))).toBe("bucket");
    expect(await text(await storage.read(plain.key))).toBe("instance");
    expect((await storage.stat(placed.key))?.key).toBe(placed.key);

    const listed: string[] = [];
    for (const root of await storage.roots()) {
      for await (const object of storage.list(`${root}orgs/`)) listed.push(object.key);
    }
    expect(listed.sort()).toEqual(["loc/7/orgs/1/builds/b", "orgs/1/builds/a"]);

    // A proxied link of the bucket carries the qualified key, which the signature covers.
    const link = new URL(await storage.signedUrl(placed.key, { expiresInSeconds: 60 }));
    expect(link.pathname).toBe("/api/files/loc/7/orgs/1/builds/b");
    const expires = Number(link.searchParams.get("expires"));
    expect(signer.verify(placed.key, expires, "", "", link.searchParams.get("signature") ?? "")).toBe(true);
    expect(signer.verify("orgs/1/builds/b", expires, "", "", link.searchParams.get("signature") ?? "")).toBe(
      false,
    );
    expect(await storage.directUrl(placed.key, { expiresInSeconds: 60 })).toBeNull();

    await storage.delete(placed.key);
    expect(await bucket.stat("orgs/1/builds/b")).toBeNull();
    await expect(storage.read("loc/8/orgs/1/builds/c")).rejects.toThrow("unknown");
  });
});

describe("holdDeletions", () => {
  it("keeps every file until the work ends, then deletes what was asked meanwhile", async () => {
    const storage = new RoutedStorage(local(null));
    await storage.put("orgs/1/builds/kept", Readable.from([Buffer.from("kept")]));
    let finish: () => void = () => undefined;
    const copying = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const held = storage.holdDeletions(() => copying);
    let deleted = false;
    const deletion = storage.delete("orgs/1/builds/kept").then(() => {
      deleted = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(deleted).toBe(false);
    expect(await storage.stat("orgs/1/builds/kept")).not.toBeNull();
    finish();
    await held;
    await deletion;
    expect(await storage.stat("orgs/1/builds/kept")).toBeNull();
  });
});
