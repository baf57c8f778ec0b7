import { describe, expect, it } from "vitest";
import { IdentityCache } from "./identity-cache.ts";

describe("IdentityCache", () => {
  it("keeps answers until a change clears them", async () => {
    const cache = new IdentityCache();
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.get("k", load)).toBe(1);
    expect(await cache.get("k", load)).toBe(1);
    cache.clear();
    expect(await cache.get("k", load)).toBe(2);
  });

  it("does not keep an answer read before a change that came while it was read", async () => {
    const cache = new IdentityCache();
    let release: (value: string) => void = () => undefined;
    const stale = cache.get("k", () => new Promise<string>((resolve) => (release = resolve)));
    cache.clear();
    release("before the change");
    expect(await stale).toBe("before the change");
    expect(await cache.get("k", async () => "after the change")).toBe("after the change");
  });
});
