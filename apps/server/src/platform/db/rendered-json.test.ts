import { describe, expect, it } from "vitest";
import { extendJsonObject } from "./rendered-json.ts";

describe("extendJsonObject", () => {
  it("appends serialized fields and JSON texts to a rendered object", () => {
    const rendered = '{"id" : 1, "title" : "Caf\\u00e9 \\"x\\"", "metadata" : {"a": [1, 2]}}';
    const json = extendJsonObject(rendered, { icon: null, who: { name: "Zoë" } }, { current: '{"id":2}' });
    expect(JSON.parse(json)).toStrictEqual({
      id: 1,
      title: 'Café "x"',
      metadata: { a: [1, 2] },
      icon: null,
      who: { name: "Zoë" },
      current: { id: 2 },
    });
  });

  it("handles empty objects on either side and refuses what is not an object", () => {
    expect(extendJsonObject("{}", {})).toBe("{}");
    expect(JSON.parse(extendJsonObject(" { } ", { a: 1 }))).toStrictEqual({ a: 1 });
    expect(JSON.parse(extendJsonObject('{"a":1}', {}, { b: "null" }))).toStrictEqual({ a: 1, b: null });
    expect(() => extendJsonObject("[1]", { a: 1 })).toThrow(/not a JSON object/);
  });
});
