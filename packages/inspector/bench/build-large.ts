import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildLargeIpa } from "./build-ipa.ts";
import { blobBytes, isBuilt, run, writeKeystream } from "./build-tools.ts";

const framework = "/usr/share/android-framework-res/framework-res.apk";

const locales = [
  "de",
  "fr",
  "es",
  "it",
  "pt-rBR",
  "ja",
  "ko",
  "zh-rCN",
  "ru",
  "pl",
  "nl",
  "sv",
  "tr",
  "ar",
  "he",
  "hi",
  "th",
  "vi",
  "id",
  "uk",
];
const stringCount = 2000;

/**
 * A resource table the size of a real app's (40k localized strings, about 2 MB): table parsing
 * cost shows up in the comparison instead of only the zip directory walk.
 */
function writeResourceStrings(work: string): void {
  for (const locale of ["", ...locales]) {
    const dir = join(work, locale ? `res/values-${locale}` : "res/values");
    mkdirSync(dir, { recursive: true });
    const label = locale ? `Large App (${locale})` : "Large App";
    const lines = [`<resources>`, `<string name="app_name">${label}</string>`];
    if (!locale) lines.push(`<string name="version_name">3.1.0</string>`);
    for (let i = 0; i < stringCount; i++)
      lines.push(`<string name="s${i}">Text ${i} ${locale} for screen ${i % 97}</string>`);
    lines.push("</resources>\n");
    writeFileSync(join(dir, "strings.xml"), lines.join("\n"));
  }
}

/** A signed APK whose stored assets/blob.bin makes it 300 MiB, packaged by aapt with -0 bin; resources.arsc
 * is stored too (-0 arsc), as Android 11+ requires for apps targeting API 30. */
export function buildLargeApk(outDir: string, keystore: string): string {
  const apk = join(outDir, "large.apk");
  if (isBuilt(apk)) return apk;
  const work = join(outDir, "apk-src");
  rmSync(work, { recursive: true, force: true });
  mkdirSync(join(work, "assets"), { recursive: true });
  mkdirSync(join(work, "res/values"), { recursive: true });
  mkdirSync(join(work, "res/mipmap-xhdpi"), { recursive: true });
  writeFileSync(
    join(work, "AndroidManifest.xml"),
    `<?xml version="1.0" encoding="utf-8"?>
<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="dev.tarmac.large"
    android:versionCode="7" android:versionName="@string/version_name">
  <uses-sdk android:minSdkVersion="21" android:targetSdkVersion="29"/>
  <uses-permission android:name="android.permission.INTERNET"/>
  <application android:label="@string/app_name" android:icon="@mipmap/ic_launcher"/>
</manifest>
`,
  );
  writeResourceStrings(work);
  execFileSync("bash", [
    "-c",
    `ppmmake rgb:80/40/c0 96 96 | pnmtopng > "${join(work, "res/mipmap-xhdpi/ic_launcher.png")}"`,
  ]);
  writeKeystream(join(work, "assets/blob.bin"), blobBytes);
  const unsigned = join(outDir, "large.unsigned.apk");
  const aligned = join(outDir, "large.aligned.apk");
  run(
    "aapt",
    [
      "package",
      "-f",
      "-0",
      "bin",
      "-0",
      "arsc",
      "-M",
      "AndroidManifest.xml",
      "-S",
      "res",
      "-A",
      "assets",
      "-I",
      framework,
      "-F",
      unsigned,
    ],
    work,
  );
  run("zipalign", ["-f", "-p", "4", unsigned, aligned]);
  run("apksigner", [
    "sign",
    "--ks",
    keystore,
    "--ks-pass",
    "pass:fixture",
    "--ks-key-alias",
    "fixture",
    "--out",
    apk,
    aligned,
  ]);
  rmSync(work, { recursive: true, force: true });
  rmSync(unsigned, { force: true });
  rmSync(aligned, { force: true });
  return apk;
}

export function buildLargeFiles(outDir: string, keystore: string): { apk: string; ipa: string } {
  mkdirSync(outDir, { recursive: true });
  return { apk: buildLargeApk(outDir, keystore), ipa: buildLargeIpa(outDir) };
}
