import { createPublicKey, type KeyObject, X509Certificate } from "node:crypto";

/** A private key with its certificate chain (signer first), as read from a keystore. */
export interface SigningKey {
  privateKey: KeyObject;
  /** DER certificates, the signer's first. */
  certificates: Buffer[];
  algorithm: "RSA" | "EC";
}

export class SigningKeyError extends Error {}

/** Checks that the key and the first certificate belong together and names the key's algorithm. */
export function signingKey(privateKey: KeyObject, certificates: Buffer[]): SigningKey {
  const first = certificates[0];
  if (!first) throw new SigningKeyError("the key has no certificate");
  const certificate = new X509Certificate(first);
  if (!certificate.checkPrivateKey(privateKey)) {
    throw new SigningKeyError("the private key does not match its certificate");
  }
  const type = privateKey.asymmetricKeyType;
  if (type !== "rsa" && type !== "ec") {
    throw new SigningKeyError(`${type ?? "this"} keys cannot sign APKs here; use an RSA or EC key`);
  }
  return { privateKey, certificates, algorithm: type === "rsa" ? "RSA" : "EC" };
}

/** The certificate's public key as SubjectPublicKeyInfo DER (what the APK Signing Block stores). */
export function publicKeyInfo(key: SigningKey): Buffer {
  return createPublicKey(key.privateKey).export({ type: "spki", format: "der" });
}
