import { createPublicKey, verify } from "node:crypto";
import { InspectError } from "../errors.ts";
import type { ByteSource } from "../source.ts";

const magic = "APK Sig Block 42";
const maxBlockBytes = 16 * 1024 * 1024;
export const schemeIds = { v2: 0x7109871a, v3: 0xf05368c0 } as const;

function corrupt(message: string): never {
  throw new InspectError("corrupt", `APK signing block: ${message}`);
}

export interface BlockSigner {
  /** DER certificates, the signer's own first. */
  certificates: Buffer[];
  /** True when one of the signer's signatures verifies over its signed data with its public key. */
  signatureValid: boolean;
}

/** u32-length-prefixed items of a sequence, each bounded by its container. */
function lengthPrefixed(buf: Buffer): Buffer[] {
  const items: Buffer[] = [];
  for (let at = 0; at < buf.length; ) {
    if (at + 4 > buf.length) corrupt("truncated length prefix");
    const length = buf.readUInt32LE(at);
    if (at + 4 + length > buf.length) corrupt("item runs past its container");
    items.push(buf.subarray(at + 4, at + 4 + length));
    at += 4 + length;
  }
  return items;
}

function field(buf: Buffer, at: number): { value: Buffer; next: number } {
  if (at + 4 > buf.length) corrupt("truncated field");
  const length = buf.readUInt32LE(at);
  if (at + 4 + length > buf.length) corrupt("field runs past its container");
  return { value: buf.subarray(at + 4, at + 4 + length), next: at + 4 + length };
}

// Signature algorithm ids of the APK Signature Scheme v2/v3.
const algorithms: Record<number, { hash: string; pss?: boolean }> = {
  257: { hash: "sha256", pss: true },
  258: { hash: "sha512", pss: true },
  259: { hash: "sha256" },
  260: { hash: "sha512" },
  513: { hash: "sha256" },
  514: { hash: "sha512" },
  769: { hash: "sha256" },
  1057: { hash: "sha256" },
  1059: { hash: "sha256" },
  1061: { hash: "sha256" },
};

function verifySignatures(signedData: Buffer, signatures: Buffer, publicKey: Buffer): boolean {
  let key: ReturnType<typeof createPublicKey>;
  try {
    key = createPublicKey({ key: publicKey, format: "der", type: "spki" });
  } catch {
    return false;
  }
  for (const record of lengthPrefixed(signatures)) {
    if (record.length < 8) continue;
    const algorithm = algorithms[record.readUInt32LE(0)];
    if (!algorithm) continue;
    const signature = field(record, 4).value;
    try {
      const options = algorithm.pss
        ? { key, padding: 6, saltLength: algorithm.hash === "sha256" ? 32 : 64 } // RSA_PKCS1_PSS_PADDING
        : key;
      if (verify(algorithm.hash, signedData, options, signature)) return true;
    } catch {}
  }
  return false;
}

/** Signers of a v2 or v3 scheme value. Both start with signed data whose second field is the certificate list. */
function readSigners(value: Buffer, scheme: "v2" | "v3"): BlockSigner[] {
  const signers: BlockSigner[] = [];
  for (const signer of lengthPrefixed(field(value, 0).value)) {
    const signedData = field(signer, 0);
    let at = signedData.next;
    if (scheme === "v3") at += 8; // minSdk, maxSdk
    const signatures = field(signer, at);
    const publicKey = field(signer, signatures.next);
    const digests = field(signedData.value, 0);
    const certificates = lengthPrefixed(field(signedData.value, digests.next).value);
    signers.push({
      certificates,
      signatureValid: verifySignatures(signedData.value, signatures.value, publicKey.value),
    });
  }
  return signers;
}

/**
 * Reads the APK Signing Block that sits right before the central directory and returns the
 * v2 and v3 signers. Digests over the whole file are not recomputed: that would read it all.
 */
export async function readSigningBlock(
  source: ByteSource,
  centralDirectoryOffset: number,
): Promise<{ v2: BlockSigner[]; v3: BlockSigner[] }> {
  const result = { v2: [] as BlockSigner[], v3: [] as BlockSigner[] };
  if (centralDirectoryOffset < 32) return result;
  const footer = await source.read(centralDirectoryOffset - 24, 24);
  if (footer.toString("latin1", 8, 24) !== magic) return result;
  const size = footer.readBigUInt64LE(0);
  if (size > BigInt(maxBlockBytes)) throw new InspectError("limit_exceeded", "APK signing block too large");
  const blockSize = Number(size);
  const start = centralDirectoryOffset - blockSize - 8;
  if (blockSize < 24 || start < 0) corrupt("size out of range");
  const block = await source.read(start, blockSize + 8);
  if (block.readBigUInt64LE(0) !== size) corrupt("header and footer sizes differ");
  const pairs = block.subarray(8, block.length - 24);
  for (let at = 0; at < pairs.length; ) {
    if (at + 12 > pairs.length) corrupt("truncated id-value pair");
    const length = pairs.readBigUInt64LE(at);
    if (length < 4n || length > BigInt(pairs.length - at - 8)) corrupt("id-value pair runs past the block");
    const id = pairs.readUInt32LE(at + 8);
    const value = pairs.subarray(at + 12, at + 8 + Number(length));
    if (id === schemeIds.v2) result.v2 = readSigners(value, "v2");
    else if (id === schemeIds.v3) result.v3 = readSigners(value, "v3");
    at += 8 + Number(length);
  }
  return result;
}
