import { describe, expect, it } from "vitest";
import { integerHeader, parseUploadMetadata } from "./tus-headers.ts";

const b64 = (text: string) => Buffer.from(text).toString("base64");

describe("tus headers", () => {
  it("reads Upload-Metadata pairs, empty values included", () => {
    expect(
      parseUploadMetadata(`filename ${b64("Tarmac 1.0 ✓.dmg")},organization ${b64("12")},is_confidential`),
    ).toEqual({ filename: "Tarmac 1.0 ✓.dmg", organization: "12", is_confidential: "" });
    expect(parseUploadMetadata(undefined)).toEqual({});
  });

  it("refuses metadata that is not the protocol's", () => {
    for (const raw of [
      `a ${b64("x")},a ${b64("y")}`,
      "a not*base64",
      `a ${b64("x")} extra`,
      `a ${b64("x")},,b`,
      `a ${b64("\u0000")}`,
    ]) {
      expect(() => parseUploadMetadata(raw), raw).toThrow(/Upload-Metadata/);
    }
  });

  it("reads offsets and lengths as non-negative integers", () => {
    expect(integerHeader({ "upload-offset": "42" }, "upload-offset")).toBe(42);
    expect(integerHeader({}, "upload-offset")).toBeNull();
    for (const raw of ["-1", "1.5", "0x10", "", "99999999999999999"]) {
      expect(() => integerHeader({ "upload-length": raw }, "upload-length"), raw).toThrow();
    }
  });
});
