import { describe, expect, it } from "vitest";
import { pageBytes, pageJson, pageParams, toPage } from "./pagination.ts";

describe("pagination", () => {
  it("bounds the page size and computes the offset", () => {
    expect(pageParams({ page: 3 }, 20)).toEqual({ page: 3, pageSize: 20, offset: 40 });
    expect(pageParams({ page: 1, page_size: 500 }, 20).pageSize).toBe(100);
  });

  it("builds absolute next and previous links that keep the other query parameters", () => {
    const params = pageParams({ page: 2, page_size: 10 });
    const page = toPage(
      { url: "/api/things/?search=a&page=2&page_size=10" },
      "https://t.example",
      params,
      35,
      [1, 2],
    );
    expect(page.next).toBe("https://t.example/api/things/?search=a&page=3&page_size=10");
    expect(page.previous).toBe("https://t.example/api/things/?search=a&page_size=10");
  });

  it("has no next link on the last page", () => {
    const params = pageParams({ page: 4, page_size: 10 });
    expect(toPage({ url: "/x/?page=4" }, "http://h", params, 35, [1, 2, 3, 4, 5]).next).toBeNull();
  });
});

describe("pageJson", () => {
  it("splices serialized results into the page as they are", () => {
    const page = { count: 2, next: null, previous: "http://x/?page=1", results: ["ignored"] };
    const json = pageJson(page, [JSON.stringify({ id: 1, title: "Café" }), JSON.stringify({ id: 2 })]);
    expect(JSON.parse(json)).toEqual({
      count: 2,
      next: null,
      previous: "http://x/?page=1",
      results: [{ id: 1, title: "Café" }, { id: 2 }],
    });
    expect(JSON.parse(pageJson({ ...page, results: [] }, []))).toEqual({ ...page, results: [] });
  });
});

describe("pageBytes", () => {
  it("makes the same page as UTF-8 bytes, from records kept as bytes or as text", () => {
    const page = { count: 3, next: "http://x/?page=2", previous: null, results: [] };
    const records = [Buffer.from(JSON.stringify({ id: 1, title: "Café" })), JSON.stringify({ id: 2 })];
    const bytes = pageBytes(page, records);
    expect(bytes.toString()).toBe(pageJson(page, records.map(String)));
    expect(JSON.parse(bytes.toString()).results).toEqual([{ id: 1, title: "Café" }, { id: 2 }]);
    expect(bytes.buffer.byteLength).toBe(bytes.byteLength);
    expect(JSON.parse(pageBytes(page, []).toString())).toEqual(page);
  });
});
