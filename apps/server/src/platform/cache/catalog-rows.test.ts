import { describe, expect, it } from "vitest";
import { CatalogRows } from "./catalog-rows.ts";

describe("CatalogRows", () => {
  const counting = (row: { id: number; organizationId: number } | null) => {
    const calls = { count: 0 };
    const load = async () => {
      calls.count += 1;
      return row;
    };
    return { calls, load };
  };

  it("answers a kept row while the caller's catalog version of its organization holds", async () => {
    const rows = new CatalogRows<{ id: number; organizationId: number }>();
    const { calls, load } = counting({ id: 7, organizationId: 3 });
    const carried = [{ organizationId: 3, catalogVersion: 10 }];
    expect(await rows.get("p 7", carried, load)).toEqual({ id: 7, organizationId: 3 });
    expect(await rows.get("p 7", carried, load)).toEqual({ id: 7, organizationId: 3 });
    expect(calls.count).toBe(1);
    // A change to the catalog moves the version: the next request reads again, then keeps that.
    const moved = [{ organizationId: 3, catalogVersion: 11 }];
    await rows.get("p 7", moved, load);
    await rows.get("p 7", moved, load);
    expect(calls.count).toBe(2);
  });

  it("reads every time for callers who carry no memberships, and keeps nothing for them", async () => {
    const rows = new CatalogRows<{ id: number; organizationId: number }>();
    const { calls, load } = counting({ id: 7, organizationId: 3 });
    await rows.get("p 7", undefined, load);
    await rows.get("p 7", undefined, load);
    expect(calls.count).toBe(2);
    await rows.get("p 7", [{ organizationId: 3, catalogVersion: 1 }], load);
    expect(calls.count).toBe(3);
  });

  it("keeps neither rows of organizations the caller is not in, nor missing rows", async () => {
    const rows = new CatalogRows<{ id: number; organizationId: number }>();
    const foreign = counting({ id: 8, organizationId: 4 });
    const carried = [{ organizationId: 3, catalogVersion: 10 }];
    await rows.get("p 8", carried, foreign.load);
    await rows.get("p 8", carried, foreign.load);
    expect(foreign.calls.count).toBe(2);
    const missing = counting(null);
    expect(await rows.get("p 9", carried, missing.load)).toBeNull();
    await rows.get("p 9", carried, missing.load);
    expect(missing.calls.count).toBe(2);
  });
});
