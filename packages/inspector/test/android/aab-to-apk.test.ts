import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { convertAabToUniversalApk } from "../../src/android/aab-to-apk/index.ts";
import { tool, zipEntry, zipLayout } from "./android-tools.ts";
import { androidFixture } from "./fixture-paths.ts";

const scratch = mkdtempSync(join(tmpdir(), "tarmac-aab-to-apk-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const reading = (name: string) => readFileSync(androidFixture(`readings/${name}`), "utf8");
const bundle = androidFixture("modular.aab");
const apk = join(scratch, "modular.apk");
const fromBundle = (name: string) => zipEntry(bundle, name);

describe("convertAabToUniversalApk on a modular bundle", () => {
  let summary: Awaited<ReturnType<typeof convertAabToUniversalApk>>;
  beforeAll(async () => {
    summary = await convertAabToUniversalApk(bundle, apk);
  });

  it("fuses the base and the install-time feature, never the on-demand one", async () => {
    expect(summary.modules).toEqual(["base", "camera"]);
    const names = (await zipLayout(apk)).map((entry) => entry.name);
    expect(names).toEqual([
      "AndroidManifest.xml",
      "resources.arsc",
      "classes.dex",
      "classes2.dex",
      "classes3.dex",
      "res/xml/config.xml",
      "res/mipmap-mdpi-v4/ic_launcher_foreground.webp",
      "res/mipmap-mdpi-v4/ic_launcher.webp",
      "res/mipmap-anydpi-v26/ic_launcher.xml",
      "res/layout/main.xml",
      "res/raw/notes.xml",
      "res/mipmap-xxxhdpi-v4/ic_launcher_foreground.webp",
      "res/mipmap-xxxhdpi-v4/ic_launcher.webp",
      "res/color/tint.xml",
      "res/layout/camera_screen.xml",
      "res/layout-v1/camera_screen.xml",
      "res/layout-v4/camera_screen.xml",
      "assets/greeting.txt",
      "assets/media/jingle.ogg",
      "assets/raw/table.bin",
      "assets/camera/lens.txt",
      "assets/dexopt/baseline.prof",
      "assets/dexopt/baseline.profm",
      "lib/arm64-v8a/libtarmac.so",
      "lib/x86_64/libtarmac.so",
      "lib/arm64-v8a/libcamera.so",
      "tarmac.properties",
      "META-INF/services/dev.tarmac.Plugin",
    ]);
    expect(summary.entries).toBe(names.length);
  });

  it("keeps dex (the feature's numbered after the base's), assets, libraries, root files and the baseline profile byte for byte", async () => {
    const pairs: [apkPath: string, bundlePath: string][] = [
      ["classes.dex", "base/dex/classes.dex"],
      ["classes2.dex", "base/dex/classes2.dex"],
      ["classes3.dex", "camera/dex/classes.dex"],
      ["assets/raw/table.bin", "base/assets/raw/table.bin"],
      ["assets/camera/lens.txt", "camera/assets/camera/lens.txt"],
      ["lib/arm64-v8a/libcamera.so", "camera/lib/arm64-v8a/libcamera.so"],
      ["tarmac.properties", "base/root/tarmac.properties"],
      ["res/raw/notes.xml", "base/res/raw/notes.xml"],
      ["assets/dexopt/baseline.prof", "BUNDLE-METADATA/com.android.tools.build.profiles/baseline.prof"],
      ["res/mipmap-xxxhdpi-v4/ic_launcher.webp", "base/res/mipmap-xxxhdpi-v4/ic_launcher.webp"],
    ];
    for (const [apkPath, bundlePath] of pairs) {
      const copied = await zipEntry(apk, apkPath);
      expect(copied, apkPath).not.toBeNull();
      expect(copied?.equals((await fromBundle(bundlePath)) as Buffer), apkPath).toBe(true);
    }
  });

  it("stores and aligns what BundleConfig.pb asks: native libraries on 16 KiB pages, the uncompressed glob, media", async () => {
    const layout = new Map((await zipLayout(apk)).map((entry) => [entry.name, entry]));
    for (const name of [
      "lib/arm64-v8a/libtarmac.so",
      "lib/x86_64/libtarmac.so",
      "lib/arm64-v8a/libcamera.so",
    ]) {
      expect(layout.get(name)?.method, name).toBe(0);
      expect((layout.get(name)?.dataOffset ?? 1) % 16384, name).toBe(0);
    }
    for (const name of [
      "resources.arsc",
      "assets/raw/table.bin",
      "assets/media/jingle.ogg",
      "res/mipmap-mdpi-v4/ic_launcher.webp",
    ]) {
      expect(layout.get(name)?.method, name).toBe(0);
      expect((layout.get(name)?.dataOffset ?? 1) % 4, name).toBe(0);
    }
    for (const name of ["AndroidManifest.xml", "classes.dex", "assets/greeting.txt", "res/layout/main.xml"])
      expect(layout.get(name)?.method, name).toBe(8);
    // zipalign's own check: 4-byte alignment of stored entries and page alignment of .so files.
    expect(await tool("zipalign", "-c", "-v", "-p", "4", apk)).toContain("Verification successful");
  });

  it("takes another page size for native libraries when asked", async () => {
    const small = join(scratch, "pages-4k.apk");
    await convertAabToUniversalApk(bundle, small, { pageAlignment: 4096 });
    const libraries = (await zipLayout(small)).filter((entry) => entry.name.endsWith(".so"));
    expect(libraries.map((entry) => entry.dataOffset % 4096)).toEqual([0, 0, 0]);
    expect(libraries.some((entry) => entry.dataOffset % 16384 !== 0)).toBe(true);
  });

  it("writes the base resources exactly as aapt2 convert does, and adds the feature's package", async () => {
    const dump = await tool("aapt2", "dump", "resources", apk);
    const [base, feature] = dump.split(/(?=^Package name=dev\.tarmac\.modular\.camera id=7e$)/m);
    expect(base).toBe(reading("modular-base.resources.txt"));
    expect(feature).toContain("resource 0x7e020000 string/camera_title");
    expect(feature).toContain('(de) "Camera (DE)"');
  });

  it("orders each type's configurations as aapt2 does, as the platform's parser reads them", async () => {
    const structure = (text: string) => text.split("\n").filter((line) => /^ +(type \d+|config )/.test(line));
    const expected = structure(reading("modular-base.configs.txt"));
    const ours = structure(await tool("aapt", "dump", "resources", apk));
    expect(ours.slice(0, expected.length)).toEqual(expected);
    expect(expected.length).toBeGreaterThan(30);
  });

  it("converts res/ XML as aapt2 convert does (tools namespace dropped, ids, styles and classes indexed)", async () => {
    expect(await tool("aapt", "dump", "xmltree", apk, "res/layout/main.xml")).toBe(
      reading("modular-base.layout.txt"),
    );
  });

  it("converts the manifest as aapt2 convert does, then fuses it as bundletool does", async () => {
    const tree = await tool("aapt", "dump", "xmltree", apk, "AndroidManifest.xml");
    const reference = reading("modular-base.manifest.txt");
    // Up to the feature's component, the manifest is aapt2's less the split markers, plus extractNativeLibs.
    const dropped = /isSplitRequired|extractNativeLibs/;
    const head = (text: string) =>
      text
        .slice(0, text.indexOf("        E: activity (line=", text.indexOf("intent-filter")))
        .split("\n")
        .filter((line) => !dropped.test(line));
    expect(head(tree)).toEqual(head(reference));
    expect(tree).toContain("A: android:extractNativeLibs(0x010104ea)=(type 0x12)0x0");
    expect(reference).toMatch(/isSplitRequired|splitName|com\.android\.vending\.splits\.required/);
    expect(tree).not.toMatch(/isSplitRequired|splitName|com\.android\.vending\.splits\.required/);
    // The feature's own declaration of its activity replaces the base's copy: its label is the feature's string.
    expect(tree).toContain(
      [
        "        E: activity (line=10)",
        "          A: android:label(0x01010001)=@0x7e020000",
        '          A: android:name(0x01010003)="dev.tarmac.modular.camera.MainActivity" (Raw: "dev.tarmac.modular.camera.MainActivity")',
        "          A: android:exported(0x01010010)=(type 0x12)0x0",
      ].join("\n"),
    );
    expect(tree).toContain(
      [
        "        E: meta-data (line=0)",
        '          A: android:name(0x01010003)="com.android.dynamic.apk.fused.modules" (Raw: "com.android.dynamic.apk.fused.modules")',
        '          A: android:value(0x01010024)="base,camera" (Raw: "base,camera")',
      ].join("\n"),
    );
  });
});
