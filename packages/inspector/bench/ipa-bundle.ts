import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { type NestedCode, writeCodeResources } from "./code-resources.ts";
import { writeBinaryPlist } from "./plist-xml.ts";

/**
 * The many small files of a real iOS app: frameworks with headers, nibs, localized strings and
 * JSON resources, each with its own Info.plist and CodeResources. Sizes and counts come from a
 * seeded generator and binary content from a keystream pool, so every build is identical.
 */

export const locales = ["Base", "en", "de", "fr", "es", "it", "ja", "ko", "zh-Hans", "pt-BR", "ru", "nl"];
const frameworkNames = [
  "Core",
  "Networking",
  "Storage",
  "Analytics",
  "DesignSystem",
  "Media",
  "Payments",
  "Maps",
  "Auth",
  "Chat",
  "Search",
  "Feed",
  "Profile",
  "Settings",
  "Onboarding",
  "Notifications",
  "Sync",
  "Crypto",
  "Logging",
  "Localization",
];

/** Deterministic sizes and counts (mulberry32). */
export function seededRandom(seed: number): (min: number, max: number) => number {
  let state = seed >>> 0;
  return (min, max) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const unit = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    return min + Math.floor(unit * (max - min + 1));
  };
}

/** Slices of one keystream buffer stand for compiled nibs and other binary resources. */
export class BytePool {
  private at = 0;
  constructor(private readonly pool: Buffer) {}
  take(length: number): Buffer {
    if (this.at + length > this.pool.length) this.at = 0;
    const slice = this.pool.subarray(this.at, this.at + length);
    this.at += length;
    return slice;
  }
}

export function writeFile(path: string, data: string | Buffer): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, data);
}

function header(framework: string, type: string, members: number): string {
  const lines = [
    "//",
    `//  ${type}.h`,
    `//  ${framework}`,
    "//",
    "",
    "#import <Foundation/Foundation.h>",
    "",
    "NS_ASSUME_NONNULL_BEGIN",
    "",
    `@interface ${type} : NSObject`,
    "",
  ];
  for (let i = 0; i < members; i++) {
    lines.push(`@property (nonatomic, copy, nullable) NSString *${type.toLowerCase()}Value${i};`);
    lines.push(
      `- (void)update${type}Value${i}:(NSString *)value completion:(void (^)(NSError *_Nullable))done;`,
    );
  }
  lines.push("", "@end", "", "NS_ASSUME_NONNULL_END", "");
  return lines.join("\n");
}

function strings(bundle: string, locale: string, count: number): string {
  const lines: string[] = [];
  for (let i = 0; i < count; i++)
    lines.push(
      `/* ${bundle} string ${i} */`,
      `"${bundle}.key.${i}" = "${bundle} text ${i} (${locale})";`,
      "",
    );
  return lines.join("\n");
}

function json(name: string, items: number): string {
  const rows = Array.from({ length: items }, (_, i) => ({
    id: `${name}-${i}`,
    weight: i * 7,
    enabled: i % 3 === 0,
  }));
  return `${JSON.stringify({ name, version: 1, rows }, null, 2)}\n`;
}

/** Localized .strings for every locale, compiled nibs and JSON resources, into `dir`. */
export function writeResources(
  dir: string,
  name: string,
  pool: BytePool,
  rand: ReturnType<typeof seededRandom>,
  scale: number,
): void {
  for (const locale of locales) {
    writeFile(join(dir, `${locale}.lproj/Localizable.strings`), strings(name, locale, rand(20, 60) * scale));
    if (locale === "Base") continue;
    writeFile(join(dir, `${locale}.lproj/InfoPlist.strings`), strings(`${name}.info`, locale, 3));
  }
  for (let i = 0; i < 30 * scale; i++)
    writeFile(join(dir, `${name}View${i}.nib`), pool.take(rand(1500, 12000)));
  for (let i = 0; i < 25 * scale; i++)
    writeFile(join(dir, `${name}Config${i}.json`), json(`${name}${i}`, rand(4, 40)));
}

/** One framework: binary, Info.plist, Headers/, Modules/, resources and its CodeResources. */
function writeFramework(
  dir: string,
  name: string,
  bundleId: string,
  pool: BytePool,
  seed: number,
): NestedCode {
  const rand = seededRandom(seed);
  const fw = join(dir, `${name}.framework`);
  writeFile(join(fw, name), pool.take(rand(300_000, 900_000)));
  writeBinaryPlist(join(fw, "Info.plist"), {
    CFBundleDevelopmentRegion: "en",
    CFBundleExecutable: name,
    CFBundleIdentifier: `${bundleId}.${name}`,
    CFBundleInfoDictionaryVersion: "6.0",
    CFBundleName: name,
    CFBundlePackageType: "FMWK",
    CFBundleShortVersionString: "3.1.0",
    CFBundleSupportedPlatforms: ["iPhoneOS"],
    CFBundleVersion: "7",
    DTPlatformName: "iphoneos",
    DTSDKName: "iphoneos17.5",
    MinimumOSVersion: "15.0",
    UIDeviceFamily: [1, 2],
  });
  const headers = rand(110, 170);
  const umbrella = [`#import <Foundation/Foundation.h>`, ""];
  for (let i = 0; i < headers; i++) {
    const type = `${name}Type${i}`;
    writeFile(join(fw, `Headers/${type}.h`), header(name, type, rand(4, 30)));
    umbrella.push(`#import <${name}/${type}.h>`);
  }
  writeFile(join(fw, `Headers/${name}.h`), `${umbrella.join("\n")}\n`);
  writeFile(
    join(fw, "Modules/module.modulemap"),
    `framework module ${name} {\n  umbrella header "${name}.h"\n  export *\n  module * { export * }\n}\n`,
  );
  writeResources(fw, name, pool, rand, 1);
  writeCodeResources(fw, name);
  return { path: `Frameworks/${name}.framework`, identifier: `${bundleId}.${name}`, executable: name };
}

export function writeFrameworks(app: string, bundleId: string, pool: BytePool): NestedCode[] {
  return frameworkNames.map((name, i) =>
    writeFramework(join(app, "Frameworks"), name, bundleId, pool, 1000 + i),
  );
}
