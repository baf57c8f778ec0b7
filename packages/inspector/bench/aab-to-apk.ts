import { spawnSync } from "node:child_process";
import { createCipheriv } from "node:crypto";
import { existsSync, mkdirSync, statSync } from "node:fs";
import { open } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ApkWriter } from "../src/android/aab-to-apk/apk-writer.ts";
import { fileSource } from "../src/source.ts";
import { openZip } from "../src/zip/index.ts";

/**
 * Converts a 150 MiB bundle (modular.aab's modules plus large native libraries, assets and
 * thousands of small files) to a universal APK in a child process, BENCH_RUNS times (default 3),
 * and reports the median time and the peak resident memory of the converting process.
 */
const packageDir = fileURLToPath(new URL("..", import.meta.url));
const outDir = join(packageDir, "bench/.out");
const runs = Number(process.env.BENCH_RUNS ?? 3);
const mib = 1024 * 1024;

/** Incompressible bytes, the same on every run: AES-CTR over zeros. */
function noise(bytes: number, seed: string): Buffer {
  const cipher = createCipheriv("aes-128-ctr", Buffer.alloc(16, seed), Buffer.alloc(16));
  return cipher.update(Buffer.alloc(bytes));
}

/** Text-like bytes that deflate about 4:1, like dex files and uncompressed textures. */
function compressible(bytes: number, seed: string): Buffer {
  const out = Buffer.alloc(bytes);
  const words = noise(4096, seed).toString("hex");
  for (let at = 0; at < bytes; at += 4096) out.write(words, at, "latin1");
  return out;
}

async function buildBundle(): Promise<string> {
  const path = join(outDir, "large.aab");
  if (existsSync(path)) return path;
  mkdirSync(outDir, { recursive: true });
  const writer = await ApkWriter.create(path);
  const fixture = join(packageDir, "fixtures/android/modular.aab");
  const source = await fileSource(fixture);
  const handle = await open(fixture, "r");
  const zip = await openZip(source);
  for (const entry of zip.entries)
    if (!entry.isDirectory && !entry.name.startsWith("META-INF/"))
      await writer.copyEntry(handle, entry, entry.name, { compress: entry.method === 8, align: 4 });
  await handle.close();
  const deflated = { compress: true, align: 4 };
  await writer.addBuffer("base/lib/arm64-v8a/libengine.so", noise(40 * mib, "a"), deflated);
  await writer.addBuffer("base/lib/x86_64/libengine.so", noise(24 * mib, "b"), deflated);
  await writer.addBuffer("camera/lib/arm64-v8a/libvision.so", noise(16 * mib, "c"), deflated);
  await writer.addBuffer("base/assets/video/intro.mp4", noise(64 * mib, "d"), { compress: false, align: 4 });
  await writer.addBuffer("base/dex/classes3.dex", compressible(48 * mib, "e"), deflated);
  for (let i = 0; i < 3000; i++)
    await writer.addBuffer(`base/assets/levels/level-${i}.json`, compressible(8 * 1024, `l${i}`), deflated);
  await writer.finish();
  return path;
}

const bundle = await buildBundle();
const output = join(outDir, "large-universal.apk");
const times: number[] = [];
let peakKb = 0;
for (let run = 0; run < runs; run++) {
  const child = spawnSync(
    process.execPath,
    ["--import", "tsx", "--import", "./bench/peak-rss.mjs", "bench/aab-to-apk-worker.ts", bundle, output],
    { cwd: packageDir, encoding: "utf8" },
  );
  if (child.status !== 0) throw new Error(`conversion failed: ${child.stderr}`);
  times.push(JSON.parse(child.stdout).ms);
  peakKb = Math.max(peakKb, Number(/peak-rss-kb (\d+)/.exec(child.stderr)?.[1] ?? 0));
}
times.sort((a, b) => a - b);
const size = (file: string) => `${(statSync(file).size / mib).toFixed(1)} MiB`;
console.log(`bundle ${size(bundle)} -> universal APK ${size(output)} (unsigned)`);
console.log(`median ${((times[Math.floor(times.length / 2)] ?? 0) / 1000).toFixed(2)} s over ${runs} runs`);
console.log(`peak resident memory of the converting process ${(peakKb / 1024).toFixed(1)} MiB`);
// The conversion streams its entries: memory must not follow the bundle's size.
if (peakKb / 1024 >= 200) {
  console.error("the conversion went past 200 MiB of memory");
  process.exitCode = 1;
}
