import { describe, expect, it } from "vitest";
import { parseBundleIds } from "./ios-resign-input.ts";
import { canResignBuild, resignActions } from "./ios-signing.policy.ts";

describe("which builds can be re-signed", () => {
  it.each([
    [{ appType: 1, fileType: "ipa", state: "ready" }, true],
    [{ appType: 1, fileType: "ipa", state: "processing" }, false],
    [{ appType: 1, fileType: "ipa", state: "failed" }, false],
    [{ appType: 0, fileType: "apk", state: "ready" }, false],
    [{ appType: 3, fileType: "zip", state: "ready" }, false],
    [{ appType: 1, fileType: undefined, state: "ready" }, false],
  ])("%o -> %s", (build, expected) => {
    expect(canResignBuild(build)).toBe(expected);
  });

  it("needs what an upload needs to start, and sight of the app to read", () => {
    expect(resignActions).toEqual({ start: "build:upload", read: "app:read" });
  });
});

describe("bundle_ids as forms send it", () => {
  it.each([
    ["", {}],
    ['{"com.a.app": "com.b.app"}', { "com.a.app": "com.b.app" }],
    ['[{"old": "com.a.app", "new": "com.b.app"}]', { "com.a.app": "com.b.app" }],
    ['[{"old_bundle_id": "com.a", "new_bundle_id": "com.b"}]', { "com.a": "com.b" }],
    ["com.a.app=com.b.app\ncom.a.kit = com.b.kit", { "com.a.app": "com.b.app", "com.a.kit": "com.b.kit" }],
  ])("%j", (text, expected) => {
    expect(parseBundleIds(text)).toEqual(expected);
  });

  it.each(["{not json", '{"com.a": "has space"}', '{"__proto__": ""}', "=com.b"])(
    "refuses %j with a field error",
    (text) => {
      expect(() => parseBundleIds(text)).toThrow(
        expect.objectContaining({ status: 400, fields: { bundle_ids: [expect.any(String)] } }),
      );
    },
  );
});
