import { createHash, sign } from "node:crypto";
import type { FileHandle } from "node:fs/promises";
import { publicKeyInfo, type SigningKey } from "./signing-key.ts";

/**
 * APK Signature Scheme v2 and v3: a block between the last entry and the central directory
 * holding, per scheme, a signer whose signed data carries the chunked SHA-256 digest of the
 * entries, the central directory and the end record. One signer, no key rotation.
 */

const v2BlockId = 0x7109871a;
const v3BlockId = 0xf05368c0;
const paddingBlockId = 0x42726577;
const strippingProtectionAttribute = 0xbeeff00d;
const rsaPkcs1Sha256 = 0x0103;
const ecdsaSha256 = 0x0201;
const chunkSize = 1024 * 1024;
/** v3 signers are read from Android 9 (API 28) on; one signer covers every later release. */
const v3MinSdk = 28;
const v3MaxSdk = 0x7fffffff;

function u32(value: number): Buffer {
  const out = Buffer.alloc(4);
  out.writeUInt32LE(value >>> 0, 0);
  return out;
}

const prefixed = (...parts: Buffer[]) => {
  const body = Buffer.concat(parts);
  return Buffer.concat([u32(body.length), body]);
};
const sequence = (items: Buffer[]) => prefixed(...items.map((item) => prefixed(item)));

function chunkDigest(data: Buffer): Buffer {
  return createHash("sha256")
    .update(Buffer.from([0xa5]))
    .update(u32(data.length))
    .update(data)
    .digest();
}

/**
 * The top-level digest over the three sections cut into 1 MiB chunks. The entries are read back
 * from the file a chunk at a time; the directory and end record are small and already in memory.
 */
export async function chunkedSha256(
  handle: FileHandle,
  entriesLength: number,
  tail: Buffer[],
): Promise<Buffer> {
  const digests: Buffer[] = [];
  const buffer = Buffer.alloc(chunkSize);
  for (let offset = 0; offset < entriesLength; offset += chunkSize) {
    const length = Math.min(chunkSize, entriesLength - offset);
    const { bytesRead } = await handle.read(buffer, 0, length, offset);
    if (bytesRead !== length) throw new Error("the APK being written shrank");
    digests.push(chunkDigest(buffer.subarray(0, length)));
  }
  for (const section of tail) {
    for (let offset = 0; offset < section.length; offset += chunkSize) {
      digests.push(chunkDigest(section.subarray(offset, offset + chunkSize)));
    }
  }
  return createHash("sha256")
    .update(Buffer.from([0x5a]))
    .update(u32(digests.length))
    .update(Buffer.concat(digests))
    .digest();
}

function algorithmOf(key: SigningKey): number {
  return key.algorithm === "RSA" ? rsaPkcs1Sha256 : ecdsaSha256;
}

function signer(key: SigningKey, signedData: Buffer, sdkRange: Buffer): Buffer {
  const algorithm = algorithmOf(key);
  const signature = sign("sha256", signedData, key.privateKey);
  return Buffer.concat([
    prefixed(signedData),
    sdkRange,
    sequence([Buffer.concat([u32(algorithm), prefixed(signature)])]),
    prefixed(publicKeyInfo(key)),
  ]);
}

function v2Value(key: SigningKey, digest: Buffer, withV3: boolean): Buffer {
  const digests = sequence([Buffer.concat([u32(algorithmOf(key)), prefixed(digest)])]);
  // Says a v3 signature exists, so a v2 verifier refuses an APK whose v3 block was stripped.
  const attributes = withV3 ? [Buffer.concat([u32(strippingProtectionAttribute), u32(3)])] : [];
  const signedData = Buffer.concat([digests, sequence(key.certificates), sequence(attributes)]);
  return sequence([signer(key, signedData, Buffer.alloc(0))]);
}

function v3Value(key: SigningKey, digest: Buffer): Buffer {
  const digests = sequence([Buffer.concat([u32(algorithmOf(key)), prefixed(digest)])]);
  const range = Buffer.concat([u32(v3MinSdk), u32(v3MaxSdk)]);
  const signedData = Buffer.concat([digests, sequence(key.certificates), range, sequence([])]);
  return sequence([signer(key, signedData, range)]);
}

function pair(id: number, value: Buffer): Buffer {
  const header = Buffer.alloc(12);
  header.writeBigUInt64LE(BigInt(value.length + 4), 0);
  header.writeUInt32LE(id, 8);
  return Buffer.concat([header, value]);
}

/** The whole APK Signing Block, padded to a multiple of 4096 bytes as apksigner does. */
export function buildSigningBlock(
  key: SigningKey,
  digest: Buffer,
  schemes: { v2: boolean; v3: boolean },
): Buffer {
  const pairs: Buffer[] = [];
  if (schemes.v2) pairs.push(pair(v2BlockId, v2Value(key, digest, schemes.v3)));
  if (schemes.v3) pairs.push(pair(v3BlockId, v3Value(key, digest)));
  const fixed = 8 + 8 + 16; // leading size, trailing size, magic
  let total = fixed + pairs.reduce((sum, p) => sum + p.length, 0);
  if (total % 4096 !== 0) {
    let padding = 4096 - (total % 4096);
    if (padding < 12) padding += 4096;
    pairs.push(pair(paddingBlockId, Buffer.alloc(padding - 12)));
    total += padding;
  }
  const size = Buffer.alloc(8);
  size.writeBigUInt64LE(BigInt(total - 8), 0);
  return Buffer.concat([size, ...pairs, size, Buffer.from("APK Sig Block 42", "latin1")]);
}
