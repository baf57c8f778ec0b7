import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { InspectError } from "../../src/errors.ts";
import { nameFromFileName } from "../../src/formats/windows-zip.ts";
import { inspectZip } from "../../src/formats/zip-build.ts";
import { bufferSource } from "../../src/source.ts";
import type { InspectOptions } from "../../src/types.ts";
import { buildZip } from "../android/zip-builder.ts";

const inspectWindowsZip = (source: ReturnType<typeof bufferSource>, options: InspectOptions) =>
  inspectZip(source, options, "zip");

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/windows/${name}`, import.meta.url));

async function reasonOf(action: () => Promise<unknown>): Promise<string> {
  try {
    await action();
  } catch (error) {
    if (error instanceof InspectError) return error.reason;
    throw error;
  }
  return "no error";
}

describe("a Windows .zip", () => {
  it("takes version and build number from the file name", async () => {
    const info = await inspectWindowsZip(bufferSource(fixture("TarmacDemo-1.4.2.zip")), {
      fileName: "TarmacDemo-1.4.2.zip",
    });
    expect(info).toEqual({
      app_type: 2,
      file_type: "zip",
      bundle_id: null,
      name: "TarmacDemo",
      version: "1.4.2",
      build_number: "142",
      min_os_version: null,
      icon: null,
      signing: null,
      version_from_file_name: true,
      platform_source: "contents",
    });
  });

  it("uses build number 0 and no version when the name has no x.y.z", async () => {
    const info = await inspectWindowsZip(bufferSource(fixture("TarmacDemo-1.4.2.zip")), {
      fileName: "Tool 2.zip",
    });
    expect(info).toMatchObject({
      name: "Tool 2",
      version: null,
      build_number: "0",
      version_from_file_name: true,
    });
  });

  it.each([
    ["TarmacDemo-1.4.2.zip", "1.4.2", "TarmacDemo"],
    ["Tool_v2.0.10_x64.zip", "2.0.10", "Tool_x64"],
    ["My App 3.2.1.ZIP", "3.2.1", "My App"],
    ["C:\\builds\\setup.1.0.0.zip", "1.0.0", "setup"],
    ["1.2.3.zip", "1.2.3", null],
    ["dev.zip", "", "dev"],
    ["Review-1.0.0-beta.zip", "1.0.0", "Review-beta"],
  ])("names %s", (fileName, version, name) => {
    expect(nameFromFileName(fileName, version)).toBe(name);
  });

  it("refuses a file that is not a zip, and a zip without files", async () => {
    expect(
      await reasonOf(() =>
        inspectWindowsZip(bufferSource(Buffer.from("MZ not a zip")), { fileName: "a.zip" }),
      ),
    ).toBe("corrupt");
    const emptyDirs = buildZip([{ name: "folder/", data: Buffer.alloc(0) }]);
    expect(
      await reasonOf(() => inspectWindowsZip(bufferSource(emptyDirs), { fileName: "a-1.0.0.zip" })),
    ).toBe("missing_manifest");
  });

  it("is Windows by its contents, whatever the app type hint says", async () => {
    for (const name of ["Setup.EXE", "bin/tool.msi", "pkg/App.msix", "AppxManifest.xml"]) {
      const zip = buildZip([{ name, data: Buffer.from("x") }]);
      const info = await inspectWindowsZip(bufferSource(zip), { fileName: "tool.zip", appTypeHint: 3 });
      expect([info.app_type, info.platform_source]).toEqual([2, "contents"]);
    }
  });

  it("refuses a zip with nothing recognisable unless its name carries a version", async () => {
    const notes = buildZip([{ name: "docs/README.txt", data: Buffer.from("hello") }]);
    await expect(inspectWindowsZip(bufferSource(notes), { fileName: "stuff.zip" })).rejects.toMatchObject({
      reason: "missing_manifest",
      message:
        "the zip holds neither a macOS app (.app) nor a Windows program (.exe, .msi, .msix, .appx), and its name carries no version (x.y.z)",
    });
    const versioned = await inspectWindowsZip(bufferSource(notes), { fileName: "stuff-2.1.0.zip" });
    expect(versioned).toMatchObject({ app_type: 2, version: "2.1.0", platform_source: "hint" });
    const forMac = await inspectWindowsZip(bufferSource(notes), {
      fileName: "stuff-2.1.0.zip",
      appTypeHint: 3,
    });
    expect(forMac).toMatchObject({ app_type: 3, version: "2.1.0", platform_source: "hint" });
  });

  it("lets the hint decide when the archive holds both platforms' builds", async () => {
    const plist = "<plist><dict><key>CFBundleIdentifier</key><string>a.b</string></dict></plist>";
    const both = buildZip([
      { name: "mac/Tool.app/Contents/Info.plist", data: Buffer.from(plist) },
      { name: "win/Tool.exe", data: Buffer.from("MZ") },
    ]);
    const windows = await inspectWindowsZip(bufferSource(both), { fileName: "Tool-1.0.0.zip" });
    expect([windows.app_type, windows.platform_source]).toEqual([2, "hint"]);
    const mac = await inspectWindowsZip(bufferSource(both), { fileName: "Tool-1.0.0.zip", appTypeHint: 3 });
    expect([mac.app_type, mac.bundle_id, mac.platform_source]).toEqual([3, "a.b", "hint"]);
  });

  it("refuses a truncated zip", async () => {
    const zip = fixture("TarmacDemo-1.4.2.zip");
    expect(
      await reasonOf(() =>
        inspectWindowsZip(bufferSource(zip.subarray(0, zip.length - 10)), { fileName: "a.zip" }),
      ),
    ).toBe("corrupt");
  });
});
