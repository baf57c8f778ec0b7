import { createPrivateKey, generateKeyPairSync, randomBytes } from "node:crypto";
import forge from "node-forge";
import { type SigningKey, signingKey } from "./signing-key.ts";

/**
 * A key for an app that brought none: RSA 2048 with a self-signed certificate valid for 30
 * years (Google Play asks for validity past 2033; a key that expires would strand installs).
 */
export function generateSigningKey(commonName: string, now = new Date()): SigningKey {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const pem = privateKey.export({ type: "pkcs1", format: "pem" }).toString();
  const forgeKey = forge.pki.privateKeyFromPem(pem);
  const certificate = forge.pki.createCertificate();
  certificate.publicKey = forge.pki.setRsaPublicKey(forgeKey.n, forgeKey.e);
  // A positive serial: the top bit cleared.
  certificate.serialNumber = `0${randomBytes(16).toString("hex").slice(1)}`;
  certificate.validity.notBefore = now;
  certificate.validity.notAfter = new Date(
    Date.UTC(now.getUTCFullYear() + 30, now.getUTCMonth(), now.getUTCDate()),
  );
  const subject = [
    { shortName: "CN", value: commonName.slice(0, 64) || "Android app" },
    { shortName: "OU", value: "Internal testing only" },
    { shortName: "O", value: "Tarmac" },
  ];
  certificate.setSubject(subject);
  certificate.setIssuer(subject);
  certificate.sign(forgeKey, forge.md.sha256.create());
  const der = Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(certificate)).getBytes(), "binary");
  return signingKey(createPrivateKey(pem), [der]);
}
