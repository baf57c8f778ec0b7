import { createHash } from "node:crypto";
import { type FileHandle, open, rm } from "node:fs/promises";
import { crc32, createInflateRaw, deflateRawSync } from "node:zlib";
import {
  type CentralEntry,
  centralRecord,
  dataOffset,
  endRecord,
  localHeader,
  readCentralDirectory,
} from "./apk-zip.ts";
import { buildSigningBlock, chunkedSha256 } from "./signing-block.ts";
import type { SigningKey } from "./signing-key.ts";
import { buildJarSignature, type JarDigest } from "./v1-signature.ts";

export interface SignOptions {
  /** The APK's minSdkVersion: decides the v1 digest (SHA-1 below API 18) and whether v1 is needed at all. */
  minSdkVersion: number;
  /** Defaults as apksigner: v1 only when the APK still installs below Android 7.0 (API 24); v2 and v3 always. */
  v1?: boolean;
  v2?: boolean;
  v3?: boolean;
}

const copyChunk = 1024 * 1024;
/** Uncompressed native libraries are mapped straight from the APK: 16 KiB covers 4 and 16 KiB page devices. */
const nativeLibraryAlignment = 16 * 1024;
const storedAlignment = 4;
/** DOS date 1981-01-01, time 00:00: fixed, so signing the same input twice gives the same files. */
const fixedDosDate = (1 << 9) | (1 << 5) | 1;

/** Old signatures are dropped: MANIFEST.MF and the signature files directly in META-INF. */
export function isSignatureFile(name: string): boolean {
  if (name === "META-INF/MANIFEST.MF") return true;
  const match = /^META-INF\/([^/]+)$/i.exec(name);
  if (!match) return false;
  const file = (match[1] as string).toUpperCase();
  return /\.(SF|RSA|DSA|EC)$/.test(file) || file.startsWith("SIG-");
}

function alignmentOf(entry: CentralEntry): number {
  if (entry.method !== 0) return 1;
  return entry.name.endsWith(".so") ? nativeLibraryAlignment : storedAlignment;
}

/**
 * Signs an APK the way apksigner does: entries are copied as they are (no recompression),
 * stored ones aligned, earlier signatures dropped, then JAR signing (v1) when asked and the
 * APK Signing Block with v2 and v3 signers. Memory stays at about one chunk per entry being copied.
 */
export async function signApk(
  inputPath: string,
  outputPath: string,
  key: SigningKey,
  options: SignOptions,
): Promise<void> {
  const schemes = {
    v1: options.v1 ?? options.minSdkVersion < 24,
    v2: options.v2 ?? true,
    v3: options.v3 ?? true,
  };
  if (!schemes.v1 && !schemes.v2 && !schemes.v3) throw new Error("at least one signature scheme is needed");
  if (schemes.v1 && key.algorithm === "EC" && options.minSdkVersion < 18) {
    throw new Error("EC keys sign JAR (v1) signatures only for apps with minSdkVersion 18 or higher");
  }
  const input = await open(inputPath, "r");
  let output: FileHandle | null = null;
  try {
    const entries = (await readCentralDirectory(input)).filter((entry) => !isSignatureFile(entry.name));
    output = await open(outputPath, "w+");
    const digest: JarDigest = options.minSdkVersion < 18 ? "sha1" : "sha256";
    const written: CentralEntry[] = [];
    const digests: Array<{ name: string; digest: Buffer }> = [];
    let offset = 0;
    for (const entry of entries) {
      const header = localHeader(entry, offset, alignmentOf(entry));
      await output.write(header, 0, header.length, offset);
      const hash = schemes.v1 && !entry.name.endsWith("/") ? createHash(digest) : null;
      await copyEntryData(input, output, entry, offset + header.length, hash);
      if (hash) digests.push({ name: entry.name, digest: hash.digest() });
      written.push({ ...entry, localHeaderOffset: offset });
      offset += header.length + entry.compressedSize;
    }
    if (schemes.v1) {
      const signedWith = [schemes.v2 ? 2 : 0, schemes.v3 ? 3 : 0].filter(Boolean);
      const jar = buildJarSignature(digests, key, digest, signedWith);
      const files: Array<[string, Buffer]> = [
        ["META-INF/MANIFEST.MF", jar.manifest],
        [jar.blockName.replace(/\.(RSA|EC)$/, ".SF"), jar.signatureFile],
        [jar.blockName, jar.signatureBlock],
      ];
      for (const [name, data] of files) {
        const compressed = deflateRawSync(data);
        const entry = newEntry(name, data, compressed, offset);
        const header = localHeader(entry, offset, 1);
        await output.write(Buffer.concat([header, compressed]), 0, header.length + compressed.length, offset);
        written.push(entry);
        offset += header.length + compressed.length;
      }
    }
    const directory = Buffer.concat(written.map(centralRecord));
    const end = endRecord(written.length, directory.length, offset);
    if (schemes.v2 || schemes.v3) {
      const contentDigest = await chunkedSha256(output, offset, [directory, end]);
      const block = buildSigningBlock(key, contentDigest, { v2: schemes.v2, v3: schemes.v3 });
      const finalEnd = endRecord(written.length, directory.length, offset + block.length);
      const tail = Buffer.concat([block, directory, finalEnd]);
      await output.write(tail, 0, tail.length, offset);
      await output.truncate(offset + tail.length);
    } else {
      const tail = Buffer.concat([directory, end]);
      await output.write(tail, 0, tail.length, offset);
      await output.truncate(offset + tail.length);
    }
  } catch (error) {
    await output?.close();
    output = null;
    await rm(outputPath, { force: true });
    throw error;
  } finally {
    await output?.close();
    await input.close();
  }
}

function newEntry(name: string, data: Buffer, compressed: Buffer, offset: number): CentralEntry {
  return {
    name,
    nameBytes: Buffer.from(name, "utf8"),
    versionMadeBy: 20,
    versionNeeded: 20,
    flags: 0x0800, // names are UTF-8
    method: 8,
    time: 0,
    date: fixedDosDate,
    crc32: crc32(data),
    compressedSize: compressed.length,
    uncompressedSize: data.length,
    internalAttributes: 0,
    externalAttributes: 0,
    localHeaderOffset: offset,
  };
}

/** Copies an entry's stored bytes chunk by chunk; with a hash, also digests its uncompressed content for v1. */
async function copyEntryData(
  input: FileHandle,
  output: FileHandle,
  entry: CentralEntry,
  target: number,
  hash: ReturnType<typeof createHash> | null,
): Promise<void> {
  const source = await dataOffset(input, entry);
  const inflater = hash && entry.method === 8 ? createInflateRaw() : null;
  let inflated = 0;
  const finished = inflater
    ? new Promise<void>((resolve, reject) => {
        inflater.on("data", (chunk: Buffer) => {
          inflated += chunk.length;
          hash?.update(chunk);
        });
        inflater.on("end", resolve);
        inflater.on("error", (error) =>
          reject(new Error(`${entry.name} has broken deflate data: ${error.message}`)),
        );
      })
    : null;
  finished?.catch(() => undefined); // awaited below; this only keeps an early failure from going unhandled
  const buffer = Buffer.alloc(Math.min(copyChunk, Math.max(entry.compressedSize, 1)));
  for (let done = 0; done < entry.compressedSize; ) {
    const length = Math.min(buffer.length, entry.compressedSize - done);
    const { bytesRead } = await input.read(buffer, 0, length, source + done);
    if (bytesRead !== length) throw new Error(`${entry.name} runs past the end of the file`);
    const chunk = buffer.subarray(0, length);
    await output.write(chunk, 0, length, target + done);
    if (inflater) {
      if (!inflater.write(Buffer.from(chunk)))
        await new Promise((resolve) => inflater.once("drain", resolve));
    } else hash?.update(chunk);
    done += length;
  }
  if (inflater && finished) {
    inflater.end();
    await finished;
    if (inflated !== entry.uncompressedSize)
      throw new Error(`${entry.name} inflates to another size than declared`);
  }
}
