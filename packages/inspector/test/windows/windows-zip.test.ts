import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { InspectError } from "../../src/errors.ts";
import { inspectWindowsZip, nameFromFileName } from "../../src/formats/windows-zip.ts";
import { bufferSource } from "../../src/source.ts";
import { buildZip } from "../android/zip-builder.ts";

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

describe("inspectWindowsZip", () => {
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

  it("refuses a truncated zip", async () => {
    const zip = fixture("TarmacDemo-1.4.2.zip");
    expect(
      await reasonOf(() =>
        inspectWindowsZip(bufferSource(zip.subarray(0, zip.length - 10)), { fileName: "a.zip" }),
      ),
    ).toBe("corrupt");
  });
});
