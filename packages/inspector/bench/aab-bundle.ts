import { createCipheriv } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { join } from "node:path";
import { ApkWriter } from "../src/android/aab-to-apk/apk-writer.ts";
import { fileSource } from "../src/source.ts";
import { openZip } from "../src/zip/index.ts";
import { run } from "./build-tools.ts";

const mib = 1024 * 1024;
const framework = "/usr/share/android-framework-res/framework-res.apk";
const locales = ["", "-de", "-fr", "-ru", "-ja", "-es", "-it", "-pt-rBR", "-zh-rCN", "-ko", "-tr", "-pl"];

/** Incompressible bytes, the same on every run: AES-CTR over zeros. */
function noise(bytes: number, seed: string): Buffer {
  const cipher = createCipheriv("aes-128-ctr", Buffer.alloc(16, seed), Buffer.alloc(16));
  return cipher.update(Buffer.alloc(bytes));
}

/** Bytes that deflate well, like dex files and uncompressed textures. */
function compressible(bytes: number, seed: string): Buffer {
  const out = Buffer.alloc(bytes);
  const words = noise(4096, seed).toString("hex");
  for (let at = 0; at < bytes; at += 4096) out.write(words, at, "latin1");
  return out;
}

/** A base module as aapt2 --proto-format links it: 8,000 strings in 12 languages (96,000 values). */
function linkBase(work: string): string {
  rmSync(work, { recursive: true, force: true });
  for (const locale of locales) {
    mkdirSync(join(work, `res/values${locale}`), { recursive: true });
    const strings = Array.from(
      { length: 8000 },
      (_, i) => `<string name="s${i}">${locale} text ${i}</string>`,
    );
    writeFileSync(
      join(work, `res/values${locale}/strings.xml`),
      `<resources>${strings.join("\n")}</resources>\n`,
    );
  }
  writeFileSync(
    join(work, "AndroidManifest.xml"),
    `<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="dev.tarmac.bench"
    android:versionCode="1" android:versionName="1.0">
  <uses-sdk android:minSdkVersion="24" android:targetSdkVersion="34"/>
  <application android:label="@string/s1"/>
</manifest>\n`,
  );
  run("aapt2", ["compile", "--dir", "res", "-o", "res.zip"], work);
  const proto = join(work, "proto.apk");
  run(
    "aapt2",
    ["link", "--proto-format", "-o", proto, "-I", framework, "--manifest", "AndroidManifest.xml", "res.zip"],
    work,
  );
  return proto;
}

/**
 * A 150 MiB bundle: a base module from real aapt2 output with a large resource table, then
 * 80 MiB of native libraries, a 64 MiB stored video, a 48 MiB dex file and 3,000 small assets.
 */
export async function buildLargeBundle(path: string, work: string): Promise<void> {
  const proto = linkBase(work);
  const writer = await ApkWriter.create(path);
  const source = await fileSource(proto);
  const handle = await open(proto, "r");
  for (const entry of (await openZip(source)).entries) {
    const name =
      entry.name === "AndroidManifest.xml" ? "base/manifest/AndroidManifest.xml" : `base/${entry.name}`;
    await writer.copyEntry(handle, entry, name, { compress: true, align: 4 });
  }
  await handle.close();
  await source.close?.();
  const deflated = { compress: true, align: 4 };
  await writer.addBuffer("BundleConfig.pb", Buffer.of(0x12, 0x04, 0x12, 0x02, 0x08, 0x01), deflated);
  await writer.addBuffer("base/lib/arm64-v8a/libengine.so", noise(40 * mib, "a"), deflated);
  await writer.addBuffer("base/lib/x86_64/libengine.so", noise(24 * mib, "b"), deflated);
  await writer.addBuffer("base/lib/armeabi-v7a/libvision.so", noise(16 * mib, "c"), deflated);
  await writer.addBuffer("base/assets/video/intro.mp4", noise(64 * mib, "d"), { compress: false, align: 4 });
  await writer.addBuffer("base/dex/classes.dex", compressible(48 * mib, "e"), deflated);
  for (let i = 0; i < 3000; i++)
    await writer.addBuffer(`base/assets/levels/level-${i}.json`, compressible(8 * 1024, `l${i}`), deflated);
  await writer.finish();
}
