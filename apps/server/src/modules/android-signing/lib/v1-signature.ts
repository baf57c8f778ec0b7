import { createHash, sign } from "node:crypto";
import { der, issuerAndSerial } from "./der.ts";
import type { SigningKey } from "./signing-key.ts";

/** JAR signing (APK Signature Scheme v1) files: MANIFEST.MF, CERT.SF and the PKCS #7 block over CERT.SF. */

const createdBy = "Created-By: 1.0 (Tarmac)";
const digestOids = { sha1: "1.3.14.3.2.26", sha256: "2.16.840.1.101.3.4.2.1" } as const;
export type JarDigest = keyof typeof digestOids;
const headerNames: Record<JarDigest, string> = { sha1: "SHA1", sha256: "SHA-256" };

/** Lines are at most 72 bytes; longer ones continue on lines starting with a space (the JAR manifest rules). */
function attribute(name: string, value: string): Buffer {
  const line = Buffer.from(`${name}: ${value}`, "utf8");
  const parts: Buffer[] = [line.subarray(0, 72)];
  for (let at = 72; at < line.length; at += 71) parts.push(Buffer.from(" "), line.subarray(at, at + 71));
  const out: Buffer[] = [];
  out.push(parts[0] as Buffer, Buffer.from("\r\n"));
  for (let i = 1; i < parts.length; i += 2)
    out.push(parts[i] as Buffer, parts[i + 1] as Buffer, Buffer.from("\r\n"));
  return Buffer.concat(out);
}

const digestOf = (algorithm: JarDigest, data: Buffer) => createHash(algorithm).update(data).digest("base64");

export interface JarFiles {
  manifest: Buffer;
  signatureFile: Buffer;
  signatureBlock: Buffer;
  blockName: string;
}

export function buildJarSignature(
  entries: ReadonlyArray<{ name: string; digest: Buffer }>,
  key: SigningKey,
  digest: JarDigest,
  signedWithSchemes: number[],
): JarFiles {
  const header = headerNames[digest];
  const main = Buffer.concat([Buffer.from(`Manifest-Version: 1.0\r\n${createdBy}\r\n\r\n`)]);
  const sections = [...entries]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((entry) =>
      Buffer.concat([
        attribute("Name", entry.name),
        attribute(`${header}-Digest`, entry.digest.toString("base64")),
        Buffer.from("\r\n"),
      ]),
    );
  const manifest = Buffer.concat([main, ...sections]);
  const signatureHeader = [
    "Signature-Version: 1.0",
    createdBy,
    `${header}-Digest-Manifest: ${digestOf(digest, manifest)}`,
  ];
  // Tells a v1-only verifier that v2/v3 signatures were stripped if it finds none (downgrade protection).
  if (signedWithSchemes.length > 0)
    signatureHeader.push(`X-Android-APK-Signed: ${signedWithSchemes.join(", ")}`);
  const names = [...entries].map((e) => e.name).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const signatureFile = Buffer.concat([
    Buffer.from(`${signatureHeader.join("\r\n")}\r\n\r\n`),
    ...sections.map((section, i) =>
      Buffer.concat([
        attribute("Name", names[i] as string),
        attribute(`${header}-Digest`, digestOf(digest, section)),
        Buffer.from("\r\n"),
      ]),
    ),
  ]);
  return {
    manifest,
    signatureFile,
    signatureBlock: signedData(signatureFile, key, digest),
    blockName: key.algorithm === "RSA" ? "META-INF/CERT.RSA" : "META-INF/CERT.EC",
  };
}

/** PKCS #7 SignedData, detached, no signed attributes: what Android's JAR verifier expects. */
function signedData(content: Buffer, key: SigningKey, digest: JarDigest): Buffer {
  const signerCertificate = key.certificates[0] as Buffer;
  const { issuer, serial } = issuerAndSerial(signerCertificate);
  const digestAlgorithm = der.sequence(der.oid(digestOids[digest]), der.null());
  const signatureAlgorithm =
    key.algorithm === "RSA"
      ? der.sequence(der.oid("1.2.840.113549.1.1.1"), der.null())
      : der.sequence(der.oid(digest === "sha256" ? "1.2.840.10045.4.3.2" : "1.2.840.10045.4.1"));
  const signature = sign(digest, content, key.privateKey);
  const signerInfo = der.sequence(
    der.integer(1),
    der.sequence(issuer, serial),
    digestAlgorithm,
    signatureAlgorithm,
    der.octetString(signature),
  );
  const body = der.sequence(
    der.integer(1),
    der.set(digestAlgorithm),
    der.sequence(der.oid("1.2.840.113549.1.7.1")),
    der.context(0, ...key.certificates),
    der.set(signerInfo),
  );
  return der.sequence(der.oid("1.2.840.113549.1.7.2"), der.context(0, body));
}
