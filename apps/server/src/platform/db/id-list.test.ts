import { describe, expect, it } from "vitest";
import { filterList, type OrderedList } from "./id-list.ts";

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
