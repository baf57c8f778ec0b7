import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const blobBytes = 300 * 1024 * 1024;
const framework = "/usr/share/android-framework-res/framework-res.apk";

function run(command: string, args: string[], cwd?: string): void {
  execFileSync(command, args, { cwd, stdio: ["ignore", "ignore", "inherit"] });
}

/** 300 MiB of incompressible bytes: AES-CTR keystream over zeros, fast and reproducible. */
function writeBlob(path: string): void {
  execFileSync(
    "bash",
    [
      "-c",
      `head -c ${blobBytes} /dev/zero | openssl enc -aes-128-ctr -nosalt -K 00112233445566778899aabbccddeeff -iv 00000000000000000000000000000000 > "${path}"`,
    ],
    { stdio: "inherit" },
  );
}

function isBuilt(path: string): boolean {
  return existsSync(path) && statSync(path).size > blobBytes;
}

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
function buildLargeApk(outDir: string, keystore: string): string {
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
  writeBlob(join(work, "assets/blob.bin"));
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

/** An IPA with Payload/X.app/Info.plist next to a 300 MiB stored blob, zipped by Info-ZIP zip. */
function buildLargeIpa(outDir: string): string {
  const ipa = join(outDir, "large.ipa");
  if (isBuilt(ipa)) return ipa;
  const work = join(outDir, "ipa-src");
  const app = join(work, "Payload/X.app");
  rmSync(work, { recursive: true, force: true });
  mkdirSync(app, { recursive: true });
  // Xcode ships Info.plist as a binary plist and the icons as PNG files named in CFBundleIcons.
  writeFileSync(
    join(work, "Info.xml"),
    `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
  <key>CFBundleIdentifier</key><string>dev.tarmac.large</string>
  <key>CFBundleName</key><string>Large</string>
  <key>CFBundleDisplayName</key><string>Large App</string>
  <key>CFBundleExecutable</key><string>X</string>
  <key>CFBundleShortVersionString</key><string>3.1.0</string>
  <key>CFBundleVersion</key><string>7</string>
  <key>MinimumOSVersion</key><string>15.0</string>
  <key>UIDeviceFamily</key><array><integer>1</integer><integer>2</integer></array>
  <key>CFBundleIcons</key><dict><key>CFBundlePrimaryIcon</key><dict>
    <key>CFBundleIconFiles</key><array><string>AppIcon60x60</string></array>
    <key>CFBundleIconName</key><string>AppIcon</string>
  </dict></dict>
</dict>
</plist>
`,
  );
  run("plistutil", ["-i", join(work, "Info.xml"), "-o", join(app, "Info.plist"), "-f", "bin"]);
  for (const [suffix, size] of [
    ["@2x", 120],
    ["@3x", 180],
  ] as const) {
    const png = join(app, `AppIcon60x60${suffix}.png`);
    execFileSync("bash", ["-c", `ppmmake rgb:80/40/c0 ${size} ${size} | pnmtopng > "${png}"`]);
  }
  writeFileSync(join(app, "X"), "not a real executable\n");
  writeBlob(join(app, "blob.bin"));
  rmSync(ipa, { force: true });
  run("zip", ["-q", "-X", "-r", "-0", ipa, "Payload"], work);
  rmSync(work, { recursive: true, force: true });
  return ipa;
}

export function buildLargeFiles(outDir: string, keystore: string): { apk: string; ipa: string } {
  mkdirSync(outDir, { recursive: true });
  return { apk: buildLargeApk(outDir, keystore), ipa: buildLargeIpa(outDir) };
}
