import { describe, expect, it } from "vitest";
import { GenerationCache } from "./generation-cache.ts";
import { keptRecords } from "./list-caches.ts";

describe("keptRecords", () => {
  const cache = () => new GenerationCache<string>({ maxEntries: 100, maxAgeMs: 60_000 });
  const presenter = () => {
    const calls: number[][] = [];
    const present = async (missing: number[]) => {
      calls.push(missing);
      // Row 13 is gone: its record is left out.
      return missing.filter((id) => id !== 13).map((id) => ({ id, record: `record ${id}` }));
    };
    return { calls, present };
  };

  it("presents only the missing records, in one call, and keeps them for the generation", async () => {
    const kept = cache();
    const { calls, present } = presenter();
    expect(await keptRecords(kept, 1, [1, 2], String, present)).toEqual(["record 1", "record 2"]);
    expect(await keptRecords(kept, 1, [2, 3, 13, 1], String, present)).toEqual([
      "record 2",
      "record 3",
      "record 1",
    ]);
    expect(calls).toEqual([
      [1, 2],
      [3, 13],
    ]);
    await keptRecords(kept, 2, [1], String, present);
    expect(calls.at(-1)).toEqual([1]); // another generation reads again
  });

  it("reads ahead with a page that must be read, and never for a page that is kept", async () => {
    const kept = cache();
    const { calls, present } = presenter();
    expect(await keptRecords(kept, 1, [1, 2], String, present, [3, 4])).toEqual(["record 1", "record 2"]);
    expect(calls).toEqual([[1, 2, 3, 4]]);
    expect(await keptRecords(kept, 1, [3, 4], String, present, [5, 6])).toEqual(["record 3", "record 4"]);
    expect(calls).toHaveLength(1);
    await keptRecords(kept, 1, [4, 7], String, present, [5, 3]);
    expect(calls.at(-1)).toEqual([7, 5]);
  });
});
