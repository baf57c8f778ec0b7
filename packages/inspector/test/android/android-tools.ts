import { execFile } from "node:child_process";
import { open } from "node:fs/promises";
import { promisify } from "node:util";
import { fileSource } from "../../src/source.ts";
import { openZip } from "../../src/zip/index.ts";
import { androidFixture } from "./fixture-paths.ts";

const exec = promisify(execFile);

/** Runs one of Debian's Android tools and returns what it prints (stderr too: apksigner reports there). */
export async function tool(command: string, ...args: string[]): Promise<string> {
  const { stdout, stderr } = await exec(command, args, { timeout: 120_000, maxBuffer: 64 * 1024 * 1024 });
  return stdout + stderr;
}

/** Signs an APK with the fixture key, as a tester's device needs (apksigner is only a test tool here). */
export async function signForTest(unsigned: string, signed: string): Promise<void> {
  await tool(
    "apksigner",
    "sign",
    "--ks",
    androidFixture("keys/fixture.p12"),
    "--ks-pass",
    "pass:fixture",
    "--ks-key-alias",
    "fixture",
    "--out",
    signed,
    unsigned,
  );
}

export interface Badging {
  package: string;
  versionCode: string;
  versionName: string;
  sdkVersion: string;
  targetSdkVersion: string;
  label: string;
  icon: string;
  labels: Record<string, string>;
}

/** The fields of `aapt dump badging` the inspector also reads. */
export async function badging(apk: string): Promise<Badging> {
  const text = await tool("aapt", "dump", "badging", apk);
  const field = (pattern: RegExp) => pattern.exec(text)?.[1] ?? "";
  const labels: Record<string, string> = {};
  for (const match of text.matchAll(/^application-label(?:-([^:]+))?:'(.*)'$/gm))
    labels[match[1] ?? ""] = match[2] ?? "";
  return {
    package: field(/^package: name='([^']*)'/m),
    versionCode: field(/versionCode='([^']*)'/),
    versionName: field(/versionName='([^']*)'/),
    sdkVersion: field(/^sdkVersion:'([^']*)'/m),
    targetSdkVersion: field(/^targetSdkVersion:'([^']*)'/m),
    label: field(/^application: label='([^']*)'/m),
    icon: field(/^application: .*icon='([^']*)'/m),
    labels,
  };
}

export interface StoredEntry {
  name: string;
  method: number;
  /** Where the entry's data starts in the file. */
  dataOffset: number;
  size: number;
}

/** Every entry of a zip with the offset of its data, for alignment checks. */
export async function zipLayout(path: string): Promise<StoredEntry[]> {
  const source = await fileSource(path);
  const handle = await open(path, "r");
  try {
    const zip = await openZip(source);
    const entries: StoredEntry[] = [];
    for (const entry of zip.entries) {
      const local = Buffer.alloc(30);
      await handle.read(local, 0, 30, entry.localHeaderOffset);
      const dataOffset = entry.localHeaderOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
      entries.push({ name: entry.name, method: entry.method, dataOffset, size: entry.uncompressedSize });
    }
    return entries;
  } finally {
    await handle.close();
    await source.close?.();
  }
}

/** Reads one entry of a zip file. */
export async function zipEntry(path: string, name: string): Promise<Buffer | null> {
  const source = await fileSource(path);
  try {
    const zip = await openZip(source);
    const entry = zip.find(name);
    return entry ? await zip.read(entry) : null;
  } finally {
    await source.close?.();
  }
}
