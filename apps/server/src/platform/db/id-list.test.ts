import { describe, expect, it } from "vitest";
import { filterList, type OrderedList } from "./id-list.ts";
import { buildTrigramIndex, buildTrigramIndexInSlices } from "./trigram-index.ts";

function listOf(rows: Array<[number, string]>): OrderedList {
  const joined = rows.map(([, text]) => text).join("\u0001");
  const starts = new Uint32Array(rows.length + 1);
  let offset = 0;
  rows.forEach(([, text], index) => {
    starts[index] = offset;
    offset += text.length + 1;
  });
  starts[rows.length] = offset;
  return { ids: Float64Array.from(rows.map(([id]) => id)), texts: { joined, starts } };
}

describe("filterList", () => {
  const list = listOf([
    [7, "cafe creme com.example.coffee\u0002cafe creme"],
    [3, "tram ch.zurich.tram\u0002tram"],
    [9, "cafe noir\u0002morning brew"],
    [4, ""],
    [5, "creme"],
  ]);
  const ids = (term: string) => Array.from(filterList(list, term).ids);

  it("keeps the rows containing the term, in list order, each once", () => {
    expect(ids("cafe")).toEqual([7, 9]);
    expect(ids("creme")).toEqual([7, 5]);
    expect(ids("zurich")).toEqual([3]);
    expect(ids("brew")).toEqual([9]);
    expect(ids("c")).toEqual([7, 3, 9, 5]);
    expect(ids("nothing")).toEqual([]);
  });

  it("matches within one row only", () => {
    expect(ids("tram\u0001cafe")).toEqual([]);
    expect(ids("creme\u0002cafe")).toEqual([]);
    expect(ids("brew")).toEqual([9]);
  });
});

describe("filterList through a trigram index", () => {
  // Words from a small alphabet with letters that have no symbol of their own (ß, ø, 東, emoji),
  // so that candidates sharing symbols must be told apart by their text.
  const pieces = ["ab", "bc", "ca", "a.", "-b", "ß", "ø", "東京", "😀", "1", "23", " "];
  let seed = 7;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const word = (length: number) =>
    Array.from({ length }, () => pieces[Math.floor(random() * pieces.length)]).join("");
  const rows: Array<[number, string]> = Array.from({ length: 400 }, (_, index) => [
    1000 - index,
    word(Math.floor(random() * 8)),
  ]);
  const plain = listOf(rows);
  const indexed: OrderedList = {
    ...plain,
    index: buildTrigramIndex(plain.texts as NonNullable<OrderedList["texts"]>, rows.length),
  };

  it("builds the same index in slices of rows, pausing between them", async () => {
    let pauses = 0;
    const sliced = await buildTrigramIndexInSlices(
      plain.texts as NonNullable<OrderedList["texts"]>,
      rows.length,
      {
        rowsPerSlice: 50,
        pause: async () => {
          pauses += 1;
        },
      },
    );
    expect(sliced).toEqual(indexed.index);
    // 400 rows in slices of 50: seven pauses in each of the two passes.
    expect(pauses).toBe(14);
  });

  it("finds exactly the rows a scan finds, in list order, for every kind of term", () => {
    const terms = [
      ...Array.from({ length: 300 }, () => word(2 + Math.floor(random() * 3))),
      "abc",
      "a.-",
      "ßø",
      "东京",
      "😀1",
      "abcabcabcabc",
      "zzz",
    ];
    // Each row's own text, searched one by one: the answer both paths must give.
    const expected = (term: string) => rows.filter(([, text]) => text.includes(term)).map(([id]) => id);
    for (const term of terms) {
      expect(Array.from(filterList(indexed, term).ids), term).toEqual(expected(term));
      expect(Array.from(filterList(plain, term).ids), term).toEqual(expected(term));
    }
  });

  it("checks few candidates one by one and many by one pass over all texts, alike", () => {
    // "com.x" is in every row (a pass over all texts); "app17" in a handful (each checked).
    const apps: Array<[number, string]> = Array.from({ length: 500 }, (_, index) => [
      index + 1,
      `app${index} com.x.app${index}\u0002project ${index % 7}`,
    ]);
    const list = listOf(apps);
    const withIndex = {
      ...list,
      index: buildTrigramIndex(list.texts as NonNullable<OrderedList["texts"]>, 500),
    };
    const expected = (term: string) => apps.filter(([, text]) => text.includes(term)).map(([id]) => id);
    for (const term of ["com.x", ".app", "app17", "x.app49", "project 3", "ject 6", "com.y", "app499 c"]) {
      expect(Array.from(filterList(withIndex, term).ids), term).toEqual(expected(term));
    }
    expect(expected("com.x")).toHaveLength(500);
    expect(expected("app17").length).toBeLessThan(500 / 8);
  });

  it("never matches across the end of a row", () => {
    const two = listOf([
      [1, "xyab"],
      [2, "cdzw"],
    ]);
    const withIndex = { ...two, index: buildTrigramIndex(two.texts as NonNullable<OrderedList["texts"]>, 2) };
    expect(Array.from(filterList(withIndex, "abcd").ids)).toEqual([]);
    expect(Array.from(filterList(withIndex, "bcd").ids)).toEqual([]);
    expect(Array.from(filterList(withIndex, "yab").ids)).toEqual([1]);
    expect(Array.from(filterList(withIndex, "cdz").ids)).toEqual([2]);
  });
});
