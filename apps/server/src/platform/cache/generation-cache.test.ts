import { describe, expect, it } from "vitest";
import { GenerationCache } from "./generation-cache.ts";

describe("GenerationCache", () => {
  it("serves an entry only for the generation it was built from", () => {
    const cache = new GenerationCache({ maxEntries: 10, maxAgeMs: 1000 });
    cache.set("a", 1, "one");
    expect(cache.get("a", 1)).toBe("one");
    expect(cache.get("a", 2)).toBeUndefined();
    expect(cache.get("a", 1)).toBeUndefined(); // dropped on the mismatch
  });

  it("expires entries after maxAgeMs", () => {
    let now = 0;
    const cache = new GenerationCache({ maxEntries: 10, maxAgeMs: 1000, now: () => now });
    cache.set("a", 1, "one");
    now = 1000;
    expect(cache.get("a", 1)).toBe("one");
    now = 1001;
    expect(cache.get("a", 1)).toBeUndefined();
  });

  it("evicts the least recently used entry beyond maxEntries", () => {
    const cache = new GenerationCache({ maxEntries: 2, maxAgeMs: 1000 });
    cache.set("a", 1, "a");
    cache.set("b", 1, "b");
    cache.get("a", 1);
    cache.set("c", 1, "c");
    expect(cache.get("b", 1)).toBeUndefined();
    expect(cache.get("a", 1)).toBe("a");
    expect(cache.size).toBe(2);
  });

  it("builds once and then serves the stored value", async () => {
    const cache = new GenerationCache({ maxEntries: 2, maxAgeMs: 1000 });
    let builds = 0;
    const build = async () => `v${++builds}`;
    expect(await cache.getOrBuild("k", 1, build)).toBe("v1");
    expect(await cache.getOrBuild("k", 1, build)).toBe("v1");
    expect(await cache.getOrBuild("k", 2, build)).toBe("v2");
  });
});

describe("GenerationCache limits and concurrent builds", () => {
  it("evicts the least recently used entries beyond maxWeight", () => {
    const cache = new GenerationCache<number[]>({
      maxEntries: 10,
      maxAgeMs: 1000,
      weigh: (ids) => ids.length,
      maxWeight: 5,
    });
    cache.set("a", 1, [1, 2, 3]);
    cache.set("b", 1, [4, 5]);
    cache.set("c", 1, [6]);
    expect(cache.get("a", 1)).toBeUndefined();
    expect(cache.get("b", 1)).toEqual([4, 5]);
    expect(cache.get("c", 1)).toEqual([6]);
  });

  it("weighs bytes by their size, not their count", () => {
    const cache = new GenerationCache<Buffer>({ maxEntries: 10, maxAgeMs: 1000, maxWeight: 10 });
    cache.set("a", 1, Buffer.from("ééé")); // 6 bytes
    cache.set("b", 1, Buffer.from("abcd"));
    expect(cache.get("a", 1)?.toString()).toBe("ééé");
    cache.set("c", 1, Buffer.from("x"));
    expect(cache.get("b", 1)).toBeUndefined();
    expect(cache.get("a", 1)?.toString()).toBe("ééé");
  });

  it("runs one build for concurrent misses of a key and generation", async () => {
    const cache = new GenerationCache({ maxEntries: 2, maxAgeMs: 1000 });
    let builds = 0;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const build = async () => {
      builds += 1;
      await gate;
      return `v${builds}`;
    };
    const waiting = [cache.getOrBuild("k", 1, build), cache.getOrBuild("k", 1, build)];
    const otherGeneration = cache.getOrBuild("k", 2, async () => "other");
    release();
    expect(await Promise.all(waiting)).toEqual(["v1", "v1"]);
    expect(await otherGeneration).toBe("other");
    expect(builds).toBe(1);
  });

  it("forgets a failed build so the next request tries again", async () => {
    const cache = new GenerationCache({ maxEntries: 2, maxAgeMs: 1000 });
    await expect(cache.getOrBuild("k", 1, async () => Promise.reject(new Error("down")))).rejects.toThrow(
      "down",
    );
    expect(await cache.getOrBuild("k", 1, async () => "up")).toBe("up");
  });
});
