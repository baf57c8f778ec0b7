import { describe, expect, it } from "vitest";
import { globToRegExp, placement, readBundleConfig } from "../../src/android/aab-to-apk/bundle-config.ts";
import { parseLocale } from "../../src/android/aab-to-apk/config.ts";
import { isFused } from "../../src/android/aab-to-apk/modules.ts";
import { distNamespace, type XmlAttribute, type XmlElement } from "../../src/android/aab-to-apk/xml-tree.ts";
import { zipEntry } from "./android-tools.ts";
import { androidFixture } from "./fixture-paths.ts";

describe("BundleConfig.pb", () => {
  it("reads the modular fixture's config (made by protoc)", async () => {
    const config = readBundleConfig(await zipEntry(androidFixture("modular.aab"), "BundleConfig.pb"));
    expect(config.uncompressNativeLibraries).toBe(true);
    expect(config.pageAlignment).toBe(16384);
    expect(config.uncompressDexFiles).toBe(false);
    expect(config.uncompressedGlobs.map(String)).toEqual(["/^assets\\/raw\\/.*$/"]);
  });

  it("matches uncompressed globs as java.nio's PathMatcher does", () => {
    const matches = (glob: string, path: string) => globToRegExp(glob).test(path);
    expect(matches("assets/**", "assets/a/b/c.bin")).toBe(true);
    expect(matches("assets/*", "assets/a/b.bin")).toBe(false);
    expect(matches("assets/**/*.mp3", "assets/music/a.mp3")).toBe(true);
    expect(matches("assets/**/*.mp3", "assets/a.mp3")).toBe(false);
    expect(matches("res/raw/*.{ogg,wav}", "res/raw/beep.wav")).toBe(true);
    expect(matches("res/raw/*.{ogg,wav}", "res/raw/beep.flac")).toBe(false);
    expect(matches("lib/[ax]*/lib?.so", "lib/x86/liba.so")).toBe(true);
    expect(matches("a+b(c).txt", "a+b(c).txt")).toBe(true);
  });

  it("places native libraries on pages only when they stay uncompressed", () => {
    const config = readBundleConfig(null);
    const rules = { nativeLibrariesStored: false, dexStored: false };
    expect(placement("lib/arm64-v8a/libx.so", config, rules)).toEqual({ compress: true, align: 4 });
    expect(placement("lib/arm64-v8a/libx.so", config, { ...rules, nativeLibrariesStored: true })).toEqual({
      compress: false,
      align: 16384,
    });
    expect(placement("classes.dex", config, rules).compress).toBe(true);
    expect(placement("classes2.dex", config, { ...rules, dexStored: true }).compress).toBe(false);
    expect(placement("res/drawable/a.PNG", config, rules).compress).toBe(false);
  });
});

describe("configuration locales", () => {
  it.each([
    ["de", { language: "de", script: "", region: "", variant: "" }],
    ["pt-rBR", { language: "pt", script: "", region: "BR", variant: "" }],
    ["pt-BR", { language: "pt", script: "", region: "BR", variant: "" }],
    ["b+sr+Latn", { language: "sr", script: "Latn", region: "", variant: "" }],
    ["es-419", { language: "es", script: "", region: "419", variant: "" }],
    ["ca-ES-valencia", { language: "ca", script: "", region: "ES", variant: "valencia" }],
  ])("%s", (tag, expected) => {
    expect(parseLocale(tag)).toEqual(expected);
  });
});

describe("which modules bundletool's universal mode fuses", () => {
  const element = (
    name: string,
    children: XmlElement[] = [],
    attributes: XmlAttribute[] = [],
  ): XmlElement => ({
    kind: "element",
    namespaces: [],
    namespace: name === "manifest" ? "" : distNamespace,
    name,
    attributes,
    children,
    line: 1,
  });
  const flag = (name: string, value: boolean): XmlAttribute => ({
    namespace: distNamespace,
    name,
    resourceId: 0,
    raw: String(value),
    value: { kind: "plain", dataType: 0x12, data: value ? 0xffffffff : 0 },
  });
  const manifest = (...module: XmlElement[]) => element("manifest", module);
  const delivery = (...children: XmlElement[]) => element("delivery", children);

  it.each([
    ["no <dist:module>", manifest(), true],
    ["install-time", manifest(element("module", [delivery(element("install-time"))])), true],
    ["on-demand", manifest(element("module", [delivery(element("on-demand"))])), false],
    ["fast-follow", manifest(element("module", [delivery(element("fast-follow"))])), false],
    [
      "conditional install-time",
      manifest(element("module", [delivery(element("install-time", [element("conditions")]))])),
      false,
    ],
    [
      "on-demand with fusing include",
      manifest(
        element("module", [delivery(element("on-demand")), element("fusing", [], [flag("include", true)])]),
      ),
      true,
    ],
    [
      "install-time with fusing exclude",
      manifest(
        element("module", [
          delivery(element("install-time")),
          element("fusing", [], [flag("include", false)]),
        ]),
      ),
      false,
    ],
    ["legacy onDemand=false", manifest(element("module", [], [flag("onDemand", false)])), true],
    ["legacy onDemand=true", manifest(element("module", [], [flag("onDemand", true)])), false],
  ])("%s", (_, module, fused) => {
    expect(isFused(module)).toBe(fused);
  });
});
