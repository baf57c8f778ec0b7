import { createHash, createPrivateKey, timingSafeEqual } from "node:crypto";
import { readElement } from "./der.ts";

/**
 * The Java KeyStore format (JKS): magic 0xFEEDFEED, version 2, then entries — private keys
 * (PKCS #8 encrypted with Sun's key protector) with their certificate chains, or trusted
 * certificates — and a SHA-1 over the password, "Mighty Aphrodite" and everything before it.
 */

export const jksMagic = 0xfeedfeed;
const jceksMagic = 0xcececece;
const keyProtectorOid = Buffer.from("2b060104012a02110101", "hex"); // 1.3.6.1.4.1.42.2.17.1.1

export interface JksKeyEntry {
  alias: string;
  encryptedKey: Buffer;
  chain: Buffer[];
}

export class KeystoreError extends Error {
  constructor(
    readonly reason: "bad_file" | "store_password" | "alias" | "key_password" | "unsupported",
    message: string,
  ) {
    super(message);
  }
}

function passwordBytes(password: string): Buffer {
  return Buffer.from(password, "utf16le").swap16(); // UTF-16BE, as Java's char[] is hashed
}

class Reader {
  offset = 0;
  constructor(private readonly data: Buffer) {}
  need(length: number): void {
    if (this.offset + length > this.data.length)
      throw new KeystoreError("bad_file", "the keystore file is truncated");
  }
  u16(): number {
    this.need(2);
    this.offset += 2;
    return this.data.readUInt16BE(this.offset - 2);
  }
  u32(): number {
    this.need(4);
    this.offset += 4;
    return this.data.readUInt32BE(this.offset - 4);
  }
  bytes(length: number): Buffer {
    this.need(length);
    this.offset += length;
    return this.data.subarray(this.offset - length, this.offset);
  }
  utf(): string {
    return this.bytes(this.u16()).toString("utf8");
  }
}

export function isJks(data: Buffer): boolean {
  return data.length >= 4 && (data.readUInt32BE(0) === jksMagic || data.readUInt32BE(0) === jceksMagic);
}

/** Reads a JKS file, checking its integrity digest with the store password first. */
export function readJks(data: Buffer, storePassword: string): JksKeyEntry[] {
  if (data.readUInt32BE(0) === jceksMagic) {
    throw new KeystoreError(
      "unsupported",
      "JCEKS keystores are not supported; convert it to PKCS#12 with keytool -importkeystore",
    );
  }
  if (data.length < 12 + 20) throw new KeystoreError("bad_file", "the keystore file is truncated");
  const body = data.subarray(0, data.length - 20);
  const expected = createHash("sha1")
    .update(passwordBytes(storePassword))
    .update(Buffer.from("Mighty Aphrodite", "utf8"))
    .update(body)
    .digest();
  const reader = new Reader(body);
  if (reader.u32() !== jksMagic) throw new KeystoreError("bad_file", "this is not a JKS keystore");
  const version = reader.u32();
  if (version !== 1 && version !== 2) throw new KeystoreError("bad_file", `unknown JKS version ${version}`);
  const count = reader.u32();
  const entries: JksKeyEntry[] = [];
  for (let i = 0; i < count; i++) {
    const tag = reader.u32();
    const alias = reader.utf();
    reader.bytes(8); // creation time
    if (tag === 1) {
      const encryptedKey = Buffer.from(reader.bytes(reader.u32()));
      const chain: Buffer[] = [];
      for (let c = reader.u32(); c > 0; c--) {
        if (version === 2) reader.utf(); // certificate type, "X.509"
        chain.push(Buffer.from(reader.bytes(reader.u32())));
      }
      entries.push({ alias, encryptedKey, chain });
    } else if (tag === 2) {
      if (version === 2) reader.utf();
      reader.bytes(reader.u32());
    } else {
      throw new KeystoreError("bad_file", `unknown JKS entry type ${tag}`);
    }
  }
  if (reader.offset !== body.length)
    throw new KeystoreError("bad_file", "the keystore file has trailing bytes");
  if (!timingSafeEqual(expected, data.subarray(data.length - 20))) {
    throw new KeystoreError("store_password", "the keystore password is wrong");
  }
  return entries;
}

/** Undoes Sun's key protector: a SHA-1 keystream over the password and a salt, checked by a SHA-1 of the result. */
export function decryptJksKey(entry: JksKeyEntry, keyPassword: string) {
  const info = entry.encryptedKey;
  const outer = readElement(info, 0);
  const algorithm = readElement(info, outer.contentStart);
  const oid = readElement(info, algorithm.contentStart);
  if (!info.subarray(oid.contentStart, oid.end).equals(keyProtectorOid)) {
    throw new KeystoreError("unsupported", "the key is protected with an algorithm other than JKS's own");
  }
  const octets = readElement(info, algorithm.end);
  const protectedKey = info.subarray(octets.contentStart, octets.end);
  if (protectedKey.length < 41) throw new KeystoreError("bad_file", "the protected key is too short");
  const salt = protectedKey.subarray(0, 20);
  const encrypted = protectedKey.subarray(20, protectedKey.length - 20);
  const check = protectedKey.subarray(protectedKey.length - 20);
  const password = passwordBytes(keyPassword);
  const plain = Buffer.alloc(encrypted.length);
  let digest: Buffer = Buffer.from(salt);
  for (let at = 0; at < encrypted.length; at += 20) {
    digest = createHash("sha1").update(password).update(digest).digest();
    for (let i = 0; i < 20 && at + i < encrypted.length; i++) {
      plain[at + i] = (encrypted[at + i] as number) ^ (digest[i] as number);
    }
  }
  const actual = createHash("sha1").update(password).update(plain).digest();
  if (!timingSafeEqual(actual, check)) throw new KeystoreError("key_password", "the key password is wrong");
  return createPrivateKey({ key: plain, format: "der", type: "pkcs8" });
}
