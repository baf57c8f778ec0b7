import { describe, expect, it } from "vitest";
import type { OrderedList } from "../db/id-list.ts";
import { SearchTermFolder } from "../db/text-search.ts";
import { GenerationCache } from "./generation-cache.ts";
import { type KeptList, keptRecords, type ListCaches, pageOfList } from "./list-caches.ts";

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

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, at) => from + at);

describe("pageOfList", () => {
  // ASCII terms fold without the database, so these searches never reach it.
  const caches = (): ListCaches => ({
    positions: new GenerationCache<OrderedList>({ maxEntries: 100, maxAgeMs: 60_000 }),
    terms: new SearchTermFolder({
      execute: () => Promise.reject(new Error("no database in this test")),
    }),
  });
  /** `rows` apps titled "app N" (long enough to be searched through a trigram index). */
  const listOf = (rows: number) => {
    const texts = Array.from({ length: rows }, (_, row) => `app ${row} ${"x".repeat(40)}`);
    const starts = new Uint32Array(rows + 1);
    for (let row = 1; row <= rows; row += 1)
      starts[row] = (starts[row - 1] as number) + (texts[row - 1] as string).length + 1;
    const ids = Float64Array.from(texts, (_, row) => row + 1);
    return { ids, texts: { joined: texts.join("\u0001"), starts } };
  };
  const counted = (rows: number) => {
    const loads = { whole: 0, ids: 0 };
    const list: KeptList = {
      key: "apps",
      generation: 1,
      load: async () => {
        loads.whole += 1;
        return listOf(rows);
      },
      loadIds: async () => {
        loads.ids += 1;
        return { ids: listOf(rows).ids };
      },
    };
    return { loads, list };
  };

  it("pages on the ids alone and reads the texts at the first search, per generation", async () => {
    const kept = caches();
    const { loads, list } = counted(50);
    expect(await pageOfList(kept, list, undefined, { offset: 20, limit: 3 })).toEqual({
      count: 50,
      ids: [21, 22, 23],
    });
    await pageOfList(kept, list, undefined, { offset: 40, limit: 20 });
    expect(loads).toEqual({ whole: 0, ids: 1 });
    expect(await pageOfList(kept, list, "APP 4", { offset: 0, limit: 20 })).toEqual({
      count: 11,
      ids: [5, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50],
    });
    expect(loads).toEqual({ whole: 1, ids: 1 });
    expect(
      (await pageOfList(kept, { ...list, generation: 2 }, undefined, { offset: 0, limit: 1 })).ids,
    ).toEqual([1]);
    expect(loads).toEqual({ whole: 1, ids: 2 });
  });

  it("answers the search that starts the trigram index by a scan, those during its build by it, alike", async () => {
    const kept = caches();
    const { list } = counted(10_000);
    const search = async (term: string) => (await pageOfList(kept, list, term, { offset: 0, limit: 20 })).ids;
    const indexKept = () => kept.positions.get("apps trigrams", 1)?.index !== undefined;
    expect(await search("app 777")).toEqual([778, ...range(7771, 7780)]);
    expect(indexKept()).toBe(false);
    // Asked while the index is built, a search waits for it rather than scanning.
    const during = search("app 888").then((ids) => ({ ids, indexKept: indexKept() }));
    expect(await during).toEqual({ ids: [889, ...range(8881, 8890)], indexKept: true });
    expect(await search("app 777")).toEqual([778, ...range(7771, 7780)]);
  });

  it("keeps searches apart from the list's other entries, whatever the term", async () => {
    const kept = caches();
    const { loads, list } = counted(10_000);
    // The first search builds the trigram index; the next terms spell the other entries' names.
    expect((await pageOfList(kept, list, "app 9999", { offset: 0, limit: 20 })).ids).toEqual([10_000]);
    for (const term of ["trigrams", "#trigrams", "ids", "#ids"]) {
      expect(await pageOfList(kept, list, term, { offset: 0, limit: 20 })).toEqual({ count: 0, ids: [] });
    }
    // Pages then use the whole list, already kept, without reading the ids apart.
    expect((await pageOfList(kept, list, undefined, { offset: 0, limit: 2 })).ids).toEqual([1, 2]);
    expect(loads).toEqual({ whole: 1, ids: 0 });
    expect((await pageOfList(kept, list, "app 9998", { offset: 0, limit: 20 })).ids).toEqual([9999]);
  });
});
