import { createHash, X509Certificate } from "node:crypto";
import { decryptJksKey, isJks, KeystoreError, readJks } from "./keystore-jks.ts";
import { readPkcs12 } from "./keystore-pkcs12.ts";
import { type SigningKey, SigningKeyError, signingKey } from "./signing-key.ts";

export { KeystoreError } from "./keystore-jks.ts";

export interface KeystoreSecret {
  file: Buffer;
  storePassword: string;
  keyAlias: string;
  keyPassword: string;
}

export interface CertificateSummary {
  subject: string;
  issuer: string;
  /** Upper-case hex with colons, as keytool and apksigner print it. */
  sha256: string;
  validFrom: Date;
  validUntil: Date;
}

export type KeystoreType = "JKS" | "PKCS12";

/** Opens the key named by the alias. Every failure is a KeystoreError saying which input was wrong. */
export function openKeystore(secret: KeystoreSecret): { key: SigningKey; type: KeystoreType } {
  if (secret.file.length === 0) throw new KeystoreError("bad_file", "the keystore file is empty");
  const type: KeystoreType = isJks(secret.file) ? "JKS" : "PKCS12";
  let privateKey: SigningKey["privateKey"];
  let chain: Buffer[];
  if (type === "JKS") {
    const entries = readJks(secret.file, secret.storePassword);
    const entry = entries.find((e) => e.alias.toLowerCase() === secret.keyAlias.toLowerCase());
    if (!entry)
      throw aliasMissing(
        secret.keyAlias,
        entries.map((e) => e.alias),
      );
    privateKey = decryptJksKey(entry, secret.keyPassword || secret.storePassword);
    chain = entry.chain;
  } else {
    const entries = readPkcs12(secret.file, secret.storePassword);
    const entry = entries.find((e) => e.alias.toLowerCase() === secret.keyAlias.toLowerCase());
    if (!entry)
      throw aliasMissing(
        secret.keyAlias,
        entries.map((e) => e.alias),
      );
    if (secret.keyPassword && secret.keyPassword !== secret.storePassword) {
      throw new KeystoreError(
        "key_password",
        "the key password is wrong (PKCS#12 keys use the keystore password)",
      );
    }
    privateKey = entry.privateKey;
    chain = entry.chain;
  }
  try {
    return { key: signingKey(privateKey, chain), type };
  } catch (error) {
    if (error instanceof SigningKeyError) throw new KeystoreError("unsupported", error.message);
    throw error;
  }
}

function aliasMissing(alias: string, aliases: string[]): KeystoreError {
  const known = aliases.length > 0 ? `; it holds ${aliases.join(", ")}` : "; it holds no private keys";
  return new KeystoreError("alias", `the keystore has no key named "${alias}"${known}`);
}

export function certificateFingerprint(der: Buffer): string {
  return createHash("sha256").update(der).digest("hex").toUpperCase().match(/../g)?.join(":") ?? "";
}

export function summarizeCertificate(der: Buffer): CertificateSummary {
  const certificate = new X509Certificate(der);
  return {
    subject: distinguishedName(certificate.subject),
    issuer: distinguishedName(certificate.issuer),
    sha256: certificateFingerprint(der),
    validFrom: new Date(certificate.validFrom),
    validUntil: new Date(certificate.validTo),
  };
}

/** Most specific part first (CN=..., O=...), as keytool and apksigner print names (RFC 4514 order). */
function distinguishedName(lines: string): string {
  return lines.split("\n").filter(Boolean).reverse().join(", ");
}
