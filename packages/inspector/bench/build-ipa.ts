import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, copyFileSync, mkdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { blobBytes, isBuilt, readKeystream, run, writeKeystream } from "./build-tools.ts";
import { writeCodeResources } from "./code-resources.ts";
import { BytePool, seededRandom, writeFile, writeFrameworks, writeResources } from "./ipa-bundle.ts";
import { writeBinaryPlist } from "./plist-xml.ts";

/**
 * A distribution IPA shaped like the large ones users upload: Payload/X.app with a binary
 * Info.plist, @2x/@3x/~ipad icons, an ad-hoc provisioning profile for 100 devices, CodeResources,
 * 20 frameworks of a few hundred small files each, a widget extension with its own profile,
 * Assets.car, a 50 MiB executable and 300 MiB of on-demand resources. Everything is seeded and
 * every mtime pinned, so the archive is the same on every build.
 */

const signingScript = fileURLToPath(new URL("../fixtures/apple-signing.sh", import.meta.url));
const bundleId = "dev.tarmac.large";
const mib = 1024 * 1024;

/** UDIDs in both shapes Apple hands out: 25-character (A12 and later) and 40-hex (older devices). */
function deviceUdids(count: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    const hex = createHash("sha1").update(`device-${i}`).digest("hex");
    return i % 3 === 0 ? hex : `00008${i % 2 ? "030" : "101"}-${hex.slice(0, 16).toUpperCase()}`;
  });
}

/**
 * Ad-hoc profiles for the app and the widget, CMS-signed by openssl through the same functions
 * that make the committed fixtures (fixtures/apple-signing.sh); keys are kept in `keys`.
 */
function makeProfiles(work: string, keys: string): { app: string; widget: string } {
  const devices = deviceUdids(100)
    .map((udid) => `\t\t<string>${udid}</string>`)
    .join("\n");
  const extra = `\t<key>ProvisionedDevices</key>\n\t<array>\n${devices}\n\t</array>`;
  mkdirSync(keys, { recursive: true });
  const script = `set -euo pipefail
source "$1"
make_signer
profile LargeAdHoc 7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d ${bundleId} 2034-01-01T00:00:00Z "$2" false
profile LargeWidgetAdHoc 8b2c3d4e-5f6a-4b7c-9d8e-0f1a2b3c4d5e ${bundleId}.widget 2034-01-01T00:00:00Z "$2" false`;
  run("bash", ["-c", script, "bash", signingScript, extra], work, {
    ...process.env,
    TZ: "UTC",
    WORK: work,
    KEYS: keys,
    OUT: join(work, "signing-out"),
  });
  return {
    app: join(work, "LargeAdHoc.mobileprovision"),
    widget: join(work, "LargeWidgetAdHoc.mobileprovision"),
  };
}

const appIcons: [string, number][] = [
  ["AppIcon60x60@2x.png", 120],
  ["AppIcon60x60@3x.png", 180],
  ["AppIcon76x76@2x~ipad.png", 152],
  ["AppIcon83.5x83.5@2x~ipad.png", 167],
];

function writeAppInfoPlist(app: string): void {
  const primary = (files: string[]) => ({
    CFBundlePrimaryIcon: { CFBundleIconFiles: files, CFBundleIconName: "AppIcon" },
  });
  writeBinaryPlist(join(app, "Info.plist"), {
    BuildMachineOSBuild: "23F79",
    CFBundleDevelopmentRegion: "en",
    CFBundleDisplayName: "Large App",
    CFBundleExecutable: "X",
    CFBundleIcons: primary(["AppIcon60x60"]),
    "CFBundleIcons~ipad": primary(["AppIcon60x60", "AppIcon76x76", "AppIcon83.5x83.5"]),
    CFBundleIdentifier: bundleId,
    CFBundleInfoDictionaryVersion: "6.0",
    CFBundleName: "Large",
    CFBundlePackageType: "APPL",
    CFBundleShortVersionString: "3.1.0",
    CFBundleSupportedPlatforms: ["iPhoneOS"],
    CFBundleVersion: "7",
    DTPlatformName: "iphoneos",
    DTSDKName: "iphoneos17.5",
    DTXcode: "1540",
    LSRequiresIPhoneOS: true,
    MinimumOSVersion: "15.0",
    NSCameraUsageDescription: "Scan codes to join a workspace.",
    UIApplicationSceneManifest: { UIApplicationSupportsMultipleScenes: false },
    UIDeviceFamily: [1, 2],
    UILaunchStoryboardName: "LaunchScreen",
    UIRequiredDeviceCapabilities: ["arm64"],
    UISupportedInterfaceOrientations: ["UIInterfaceOrientationPortrait"],
  });
}

function writeWidget(app: string, profile: string, pool: BytePool): void {
  const widget = join(app, "PlugIns/Widget.appex");
  writeFile(join(widget, "Widget"), pool.take(2 * mib));
  writeBinaryPlist(join(widget, "Info.plist"), {
    CFBundleDisplayName: "Large Widget",
    CFBundleExecutable: "Widget",
    CFBundleIdentifier: `${bundleId}.widget`,
    CFBundlePackageType: "XPC!",
    CFBundleShortVersionString: "3.1.0",
    CFBundleVersion: "7",
    MinimumOSVersion: "17.0",
    NSExtension: { NSExtensionPointIdentifier: "com.apple.widgetkit-extension" },
  });
  copyFileSync(profile, join(widget, "embedded.mobileprovision"));
  writeFile(join(widget, "Assets.car"), pool.take(256 * 1024));
  writeResources(widget, "Widget", pool, seededRandom(7), 1);
  writeCodeResources(widget, "Widget");
}

/** The app bundle under `work/Payload/X.app`, signed resources included; returns the executables. */
function writeApp(work: string, keys: string): string[] {
  const app = join(work, "Payload/X.app");
  const profiles = makeProfiles(work, keys);
  const pool = new BytePool(readKeystream(48 * mib, 1));
  writeAppInfoPlist(app);
  for (const [file, size] of appIcons) {
    execFileSync("bash", ["-c", `ppmmake rgb:80/40/c0 ${size} ${size} | pnmtopng > "${join(app, file)}"`]);
  }
  copyFileSync(profiles.app, join(app, "embedded.mobileprovision"));
  writeFile(join(app, "PkgInfo"), "APPL????");
  writeKeystream(join(app, "X"), 50 * mib, 2);
  writeKeystream(join(app, "Assets.car"), 5 * mib, 3);
  const packDir = join(app, `OnDemandResources/${bundleId}.levels-0.assetpack`);
  mkdirSync(packDir, { recursive: true });
  writeKeystream(join(packDir, "levels.bin"), blobBytes, 0);
  writeBinaryPlist(join(packDir, "Info.plist"), {
    CFBundleIdentifier: `${bundleId}.levels-0`,
    Tags: ["levels"],
  });
  writeResources(app, "App", pool, seededRandom(5), 3);
  for (const board of ["Main", "LaunchScreen"]) {
    const dir = join(app, `Base.lproj/${board}.storyboardc`);
    writeBinaryPlist(join(dir, "Info.plist"), {
      UIStoryboardDesignatedEntryPointIdentifier: "Entry",
      UIStoryboardVersion: 1,
      UIViewControllerIdentifiersToNibNames: { Entry: "Scene-0-view" },
    });
    for (let i = 0; i < 12; i++) writeFile(join(dir, `Scene-${i}-view.nib`), pool.take(4000 + i * 300));
  }
  writeWidget(app, profiles.widget, pool);
  const nested = [
    ...writeFrameworks(app, bundleId, pool),
    { path: "PlugIns/Widget.appex", identifier: `${bundleId}.widget`, executable: "Widget" },
  ];
  writeCodeResources(app, "X", nested);
  return [join(app, "X"), ...nested.map((code) => join(app, code.path, code.executable))];
}

/**
 * Zips Payload/ with Info-ZIP: names in sorted order (`zip -r` would follow the file system's
 * directory order, which varies between machines), directories included, deflate level 1
 * (incompressible files end up stored, as zip keeps whichever is smaller).
 */
function zipPayload(work: string, ipa: string, executables: string[]): void {
  // Modes go into the archive, so they are set rather than left to the umask.
  run(
    "bash",
    ["-c", "find Payload -type d -exec chmod 755 {} + && find Payload -type f -exec chmod 644 {} +"],
    work,
  );
  for (const file of executables) chmodSync(file, 0o755);
  run(
    "bash",
    [
      "-c",
      `find Payload -exec touch -h -d "2024-01-01 00:00:00" {} + && find Payload | LC_ALL=C sort | zip -q -X -1 -@ "${ipa}"`,
    ],
    work,
    { ...process.env, TZ: "UTC" },
  );
}

export function buildLargeIpa(outputDir: string): string {
  const outDir = resolve(outputDir);
  const ipa = join(outDir, "large-app.ipa");
  if (isBuilt(ipa)) return ipa;
  const work = join(outDir, "ipa-src");
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const executables = writeApp(work, join(outDir, "keys"));
  rmSync(ipa, { force: true });
  zipPayload(work, ipa, executables);
  rmSync(work, { recursive: true, force: true });
  return ipa;
}
