import { describe, expect, it } from "vitest";
import { attachmentDisposition } from "../platform/storage/content-disposition.ts";
import { parseRange } from "./byte-range.ts";

describe("parseRange", () => {
  it.each([
    [undefined, 100, { kind: "full" }],
    ["bytes=0-9", 100, { kind: "partial", range: { start: 0, end: 9 } }],
    ["bytes=90-", 100, { kind: "partial", range: { start: 90, end: 99 } }],
    ["bytes=-10", 100, { kind: "partial", range: { start: 90, end: 99 } }],
    ["bytes=-500", 100, { kind: "partial", range: { start: 0, end: 99 } }],
    ["bytes=50-500", 100, { kind: "partial", range: { start: 50, end: 99 } }],
    ["bytes=100-", 100, { kind: "unsatisfiable" }],
    ["bytes=9-3", 100, { kind: "unsatisfiable" }],
    ["bytes=0-1,5-6", 100, { kind: "full" }],
    ["items=0-1", 100, { kind: "full" }],
  ])("%s of %d bytes", (header, size, expected) => {
    expect(parseRange(header, size)).toEqual(expected);
  });
});

describe("attachmentDisposition", () => {
  it("keeps an ASCII fallback and the UTF-8 name", () => {
    expect(attachmentDisposition('Приложение "1".apk')).toBe(
      `attachment; filename="__________ _1_.apk"; filename*=UTF-8''%D0%9F%D1%80%D0%B8%D0%BB%D0%BE%D0%B6%D0%B5%D0%BD%D0%B8%D0%B5%20%221%22.apk`,
    );
  });
});
