import { describe, expect, it } from "vitest";
import {
  acceptedExtensionList,
  acceptedExtensions,
  detectType,
  extensionOf,
  isSemanticVersion,
  tagName,
  versionFromFileName,
} from "../src/rules.ts";

describe("detectType", () => {
  it.each([
    ["app.apk", 0, "apk"],
    ["bundle.AAB", 0, "aab"],
    ["ios.ipa", 1, "ipa"],
    ["w.msix", 2, "msix"],
    ["w.msixbundle", 2, "msixbundle"],
    ["w.msixupload", 2, "msixupload"],
    ["w.appx", 2, "appx"],
    ["w.appxbundle", 2, "appxbundle"],
    ["w.appxupload", 2, "appxupload"],
    ["setup.msi", 2, "msi"],
    ["mac.dmg", 3, "dmg"],
    ["mac.pkg", 3, "pkg"],
  ] as const)("maps %s to app type %i (%s)", (fileName, appType, fileType) => {
    expect(detectType(fileName)).toEqual({ appType, fileType });
    expect(detectType(fileName, 3)).toEqual({ appType, fileType });
  });

  it("lets a .zip follow the current app type, Windows by default", () => {
    expect(detectType("a.zip", 3)).toEqual({ appType: 3, fileType: "zip" });
    expect(detectType("a.zip", 2)).toEqual({ appType: 2, fileType: "zip" });
    expect(detectType("a.ZIP")).toEqual({ appType: 2, fileType: "zip" });
    expect(detectType("a.zip", 0)).toEqual({ appType: 2, fileType: "zip" });
    expect(detectType("a.zip", 1)).toEqual({ appType: 2, fileType: "zip" });
  });

  it.each(["a.exe", "a.tar.gz", "noext", ".apk", "a.", "dir.apk/file"])("refuses %s", (fileName) => {
    expect(detectType(fileName)).toBeNull();
  });

  it("reads the extension of the last path part only", () => {
    expect(extensionOf("C:\\x.y\\Setup.MSI")).toBe("msi");
    expect(extensionOf("/a.b/c")).toBe("");
    expect(extensionOf(".hidden")).toBe("");
  });

  it("lists every accepted extension once, in the spec's order", () => {
    expect(acceptedExtensions[2]).toEqual([
      ".msix",
      ".msixbundle",
      ".msixupload",
      ".zip",
      ".msi",
      ".appx",
      ".appxbundle",
      ".appxupload",
    ]);
    expect(acceptedExtensionList()).toBe(
      ".apk, .aab, .ipa, .msix, .msixbundle, .msixupload, .zip, .msi, .appx, .appxbundle, .appxupload, .dmg, .pkg",
    );
  });
});

describe("versionFromFileName", () => {
  it.each([
    ["App-1.2.3.zip", "1.2.3", "123"],
    ["App_10.20.30_x64.msi", "10.20.30", "102030"],
    ["App-1.2.3.4.msix", "1.2.3", "123"],
    ["App-1.2.zip", "", "0"],
    ["App.zip", "", "0"],
    ["", "", "0"],
    ["C:\\v9.9.9\\App.zip", "", "0"],
    ["dir/App 0.0.1.dmg", "0.0.1", "001"],
  ])("reads %s as %s / %s", (fileName, version, buildNumber) => {
    expect(versionFromFileName(fileName)).toEqual({ version, buildNumber });
  });
});

describe("tagName", () => {
  it.each([
    ["My App", 1, "my_app_ios"],
    ["Tarmac", 0, "tarmac_android"],
    ["  Big   Tool ", 2, "big_tool_windows"],
    ["Mac Thing", 3, "mac_thing_macos"],
  ] as const)("tags %s for type %i as %s", (title, appType, tag) => {
    expect(tagName(title, appType)).toBe(tag);
  });
});

describe("isSemanticVersion", () => {
  it.each([
    "0.0.0",
    "1.2.3",
    "10.20.30",
    "1.0.0-alpha",
    "1.0.0-alpha.1",
    "1.0.0-0.3.7",
    "1.0.0-x.7.z.92",
    "1.0.0+20130313144700",
    "1.0.0-beta+exp.sha.5114f85",
    "1.0.0-rc.1+build.1",
  ])("accepts %s", (value) => {
    expect(isSemanticVersion(value)).toBe(true);
  });

  it.each([
    "1",
    "1.2",
    "1.2.3.4",
    "01.2.3",
    "1.02.3",
    "1.2.03",
    "1.2.3-",
    "1.2.3-01",
    "1.2.3+",
    "1.2.3-alpha..1",
    "v1.2.3",
    " 1.2.3",
    "1.2.3 ",
    "",
  ])("refuses %s", (value) => {
    expect(isSemanticVersion(value)).toBe(false);
  });
});
