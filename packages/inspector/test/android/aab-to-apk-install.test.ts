import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { convertAabToUniversalApk } from "../../src/android/aab-to-apk/index.ts";
import { InspectError } from "../../src/errors.ts";
import { inspect } from "../../src/inspect.ts";
import { badging, signForTest, tool, zipEntry } from "./android-tools.ts";
import { androidFixture } from "./fixture-paths.ts";
import { buildZip } from "./zip-builder.ts";

const scratch = mkdtempSync(join(tmpdir(), "tarmac-aab-install-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("the universal APK, signed with apksigner, against what the inspector read from the bundle", () => {
  // apksigner and aapt start a JVM or two per call: slow on a busy machine.
  it.each(["modular", "bundle", "adaptive-webp", "vector"])("%s.aab", { timeout: 60_000 }, async (name) => {
    const unsigned = join(scratch, `${name}.unsigned.apk`);
    const signed = join(scratch, `${name}.apk`);
    await convertAabToUniversalApk(androidFixture(`${name}.aab`), unsigned);
    await signForTest(unsigned, signed);
    const verified = await tool("apksigner", "verify", "--verbose", signed);
    expect(verified).toMatch(/^Verifies$/m);
    expect(verified).toMatch(/Verified using v2 scheme \(APK Signature Scheme v2\): true/);

    const fromBundle = await inspect(androidFixture(`${name}.aab`), { fileName: `${name}.aab` });
    const read = await badging(signed);
    expect({
      package: read.package,
      versionCode: read.versionCode,
      versionName: read.versionName,
      sdkVersion: read.sdkVersion,
      targetSdkVersion: read.targetSdkVersion,
      label: read.label,
    }).toEqual({
      package: fromBundle.bundle_id,
      versionCode: fromBundle.build_number,
      versionName: fromBundle.version,
      sdkVersion: fromBundle.min_os_version,
      targetSdkVersion: String(fromBundle.target_sdk_version),
      label: fromBundle.name,
    });
    // aapt lists a label for every locale the APK has resources in; the inspector those the label has.
    for (const [locale, label] of Object.entries(fromBundle.labels ?? {}))
      expect(read.labels[locale]).toBe(label);

    // The same icon: aapt names the resource file, the inspector renders it the same from both builds.
    const fromApk = await inspect(signed, { fileName: `${name}.apk` });
    expect(read.icon).toMatch(/^res\/mipmap-/);
    expect(fromApk.icon?.png.equals(fromBundle.icon?.png as Buffer)).toBe(true);
    expect(fromApk.native_abis).toEqual(fromBundle.native_abis);
  });

  it("equals aapt2 convert on a single-module bundle, manifest and resources", {
    timeout: 60_000,
  }, async () => {
    const unpacked = join(scratch, "reference");
    const proto = join(scratch, "proto.zip");
    const reference = join(scratch, "reference.apk");
    const ours = join(scratch, "ours.apk");
    await tool("unzip", "-q", "-o", androidFixture("bundle.aab"), "base/*", "-d", unpacked);
    await tool(
      "sh",
      "-c",
      `cd "${unpacked}/base" && zip -q -r "${proto}" res resources.pb && zip -q -j "${proto}" manifest/AndroidManifest.xml`,
    );
    await tool("aapt2", "convert", "--output-format", "binary", "-o", reference, proto);
    await convertAabToUniversalApk(androidFixture("bundle.aab"), ours);
    // bundletool records the fused modules (here the base alone) at the end of <application>.
    const fused = [
      "      E: meta-data (line=0)",
      '        A: android:name(0x01010003)="com.android.dynamic.apk.fused.modules" (Raw: "com.android.dynamic.apk.fused.modules")',
      '        A: android:value(0x01010024)="base" (Raw: "base")',
      "",
    ].join("\n");
    const manifest = (apk: string) => tool("aapt", "dump", "xmltree", apk, "AndroidManifest.xml");
    expect(await manifest(ours)).toBe(`${await manifest(reference)}${fused}`);
    const icon = (apk: string) =>
      tool("aapt", "dump", "xmltree", apk, "res/mipmap-anydpi-v26/ic_launcher.xml");
    expect(await icon(ours)).toBe(await icon(reference));
    expect(await tool("aapt2", "dump", "resources", ours)).toBe(
      await tool("aapt2", "dump", "resources", reference),
    );
  });
});

describe("bundles that cannot be converted", () => {
  const output = join(scratch, "refused.apk");
  const refused = async (bundle: Buffer) => {
    const input = join(scratch, "refused.aab");
    writeFileSync(input, bundle);
    const error = await convertAabToUniversalApk(input, output).catch((caught: unknown) => caught);
    expect(existsSync(output)).toBe(false);
    expect(error).toBeInstanceOf(InspectError);
    return error as InspectError;
  };
  const baseManifest = () =>
    zipEntry(androidFixture("bundle.aab"), "base/manifest/AndroidManifest.xml") as Promise<Buffer>;

  it("refuses a file that is no zip", async () => {
    expect((await refused(Buffer.from("not a bundle at all"))).reason).toBe("corrupt");
  });

  it("refuses to write the APK over its bundle, and leaves a file it did not start alone", async () => {
    const input = join(scratch, "kept.aab");
    writeFileSync(input, "not a bundle");
    await expect(convertAabToUniversalApk(input, input)).rejects.toThrow("must not overwrite its bundle");
    const existing = join(scratch, "existing.apk");
    writeFileSync(existing, "kept");
    await expect(convertAabToUniversalApk(input, existing)).rejects.toBeInstanceOf(InspectError);
    expect(readFileSync(existing, "utf8")).toBe("kept");
    expect(readFileSync(input, "utf8")).toBe("not a bundle");
  });

  it("refuses a bundle without a base module", async () => {
    const error = await refused(
      buildZip([{ name: "feature/manifest/AndroidManifest.xml", data: await baseManifest() }]),
    );
    expect(error.reason).toBe("missing_manifest");
    expect(error.message).toContain("base/manifest/AndroidManifest.xml");
  });

  it("refuses an entry whose bytes fail their CRC, and leaves no half-written APK", async () => {
    const error = await refused(
      buildZip([
        { name: "base/manifest/AndroidManifest.xml", data: await baseManifest(), deflate: true },
        {
          name: "base/assets/data.txt",
          data: Buffer.from("some data ".repeat(100)),
          deflate: true,
          declaredCrc: 1,
        },
      ]),
    );
    expect(error.reason).toBe("corrupt");
    expect(error.message).toContain("base/assets/data.txt fails its CRC-32 check");
  });

  it.each([
    ["copied as it is", "base/assets/data.txt"],
    ["inflated to be stored", "base/assets/song.ogg"],
  ])("refuses an entry that inflates past its declared size (%s)", async (_, name) => {
    const error = await refused(
      buildZip([
        { name: "base/manifest/AndroidManifest.xml", data: await baseManifest() },
        { name, data: Buffer.alloc(3 * 1024 * 1024, "x"), deflate: true, declaredSize: 1024 },
      ]),
    );
    expect(error.message).toContain(`${name} inflates past its declared size`);
  });

  it("refuses two modules that put different files at one APK path", async () => {
    const manifest = await baseManifest();
    const error = await refused(
      buildZip([
        { name: "base/manifest/AndroidManifest.xml", data: manifest },
        { name: "base/assets/a.txt", data: Buffer.from("base") },
        { name: "second/manifest/AndroidManifest.xml", data: manifest },
        { name: "second/assets/a.txt", data: Buffer.from("second") },
      ]),
    );
    expect(error.message).toContain("the bundle puts two files at assets/a.txt in the APK");
  });
});
