import { createHash, verify as verifySignature } from "node:crypto";
import { InspectError } from "../errors.ts";
import {
  childrenOf,
  contentOf,
  type DerNode,
  expectTag,
  rawOf,
  readNode,
  readOctetString,
  readOid,
  tags,
} from "./der.ts";
import { parseCertificate, readCertificateIdentity } from "./x509.ts";

/** CMS / PKCS#7 SignedData (RFC 5652), as used by provisioning profiles and APK v1 signatures. */

export const oids = {
  signedData: "1.2.840.113549.1.7.2",
  data: "1.2.840.113549.1.7.1",
  contentType: "1.2.840.113549.1.9.3",
  messageDigest: "1.2.840.113549.1.9.4",
} as const;

const digestNames: Record<string, string> = {
  "1.3.14.3.2.26": "sha1",
  "2.16.840.1.101.3.4.2.4": "sha224",
  "2.16.840.1.101.3.4.2.1": "sha256",
  "2.16.840.1.101.3.4.2.2": "sha384",
  "2.16.840.1.101.3.4.2.3": "sha512",
  // Some signers put the combined signature OID where the digest OID belongs.
  "1.2.840.113549.1.1.5": "sha1",
  "1.2.840.113549.1.1.11": "sha256",
  "1.2.840.113549.1.1.12": "sha384",
  "1.2.840.113549.1.1.13": "sha512",
};

// RSA PKCS#1 v1.5, ECDSA and DSA (older APK v1 keys); the digest always comes from the
// SignerInfo's digestAlgorithm.
const signatureKinds: Record<string, "rsa" | "ecdsa" | "dsa"> = {
  "1.3.14.3.2.29": "rsa",
  "1.2.840.113549.1.1.1": "rsa",
  "1.2.840.113549.1.1.5": "rsa",
  "1.2.840.113549.1.1.11": "rsa",
  "1.2.840.113549.1.1.12": "rsa",
  "1.2.840.113549.1.1.13": "rsa",
  "1.2.840.113549.1.1.14": "rsa",
  "1.2.840.10045.2.1": "ecdsa",
  "1.2.840.10045.4.1": "ecdsa",
  "1.2.840.10045.4.3.1": "ecdsa",
  "1.2.840.10045.4.3.2": "ecdsa",
  "1.2.840.10045.4.3.3": "ecdsa",
  "1.2.840.10045.4.3.4": "ecdsa",
  "1.2.840.10040.4.1": "dsa",
  "1.2.840.10040.4.3": "dsa",
  "2.16.840.1.101.3.4.3.1": "dsa",
  "2.16.840.1.101.3.4.3.2": "dsa",
};

const keyTypes = { rsa: "rsa", ecdsa: "ec", dsa: "dsa" } as const;

export interface SignerInfo {
  digestAlgorithm: string; // OID
  signatureAlgorithm: string; // OID
  signature: Buffer;
  /** The signed attributes re-encoded as the DER SET that the signature covers, or null. */
  signedAttributes: Buffer | null;
  messageDigest: Buffer | null;
  /** IssuerAndSerialNumber form of the signer identifier. */
  issuer: Buffer | null;
  serial: Buffer | null;
  /** SubjectKeyIdentifier form of the signer identifier. */
  subjectKeyIdentifier: Buffer | null;
}

export interface SignedData {
  contentType: string;
  /** The encapsulated content, or null when the signature is detached. */
  content: Buffer | null;
  /** DER of every certificate in the certificate set. */
  certificates: Buffer[];
  signers: SignerInfo[];
}

function corrupt(message: string): never {
  throw new InspectError("corrupt", `CMS: ${message}`);
}

/** Parses a DER/BER ContentInfo holding SignedData. Throws InspectError for anything malformed. */
export function parseSignedData(input: Buffer): SignedData {
  try {
    return parseContentInfo(input);
  } catch (error) {
    if (error instanceof InspectError) throw error;
    throw new InspectError("corrupt", `CMS: ${(error as Error).message}`);
  }
}

/** The fields of the SignedData a ContentInfo wraps (RFC 5652 §3, §5.1). */
export function signedDataFields(buf: Buffer): DerNode[] {
  const info = expectTag(readNode(buf, 0), tags.sequence, "ContentInfo");
  const [typeNode, wrapped] = childrenOf(buf, info);
  if (!typeNode || readOid(buf, typeNode) !== oids.signedData) corrupt("not SignedData");
  const explicit = expectTag(wrapped, 0xa0, "[0] content");
  return childrenOf(buf, expectTag(childrenOf(buf, explicit)[0], tags.sequence, "SignedData"));
}

/**
 * The certificate set that follows the encapsulated content, and the index of signerInfos
 * (after the optional CRLs). Only X.509 certificates (SEQUENCE) are kept; attribute and
 * "other" certificate choices are skipped.
 */
export function readCertificateSet(
  buf: Buffer,
  fields: DerNode[],
): { certificates: Buffer[]; signerInfosIndex: number } {
  let index = 3;
  const certificates: Buffer[] = [];
  if (fields[index]?.tag === 0xa0) {
    for (const cert of childrenOf(buf, fields[index] as DerNode)) {
      if (cert.tag === tags.sequence) certificates.push(rawOf(buf, cert));
    }
    index++;
  }
  if (fields[index]?.tag === 0xa1) index++; // CRLs
  return { certificates, signerInfosIndex: index };
}

function parseContentInfo(buf: Buffer): SignedData {
  const fields = signedDataFields(buf);
  expectTag(fields[0], tags.integer, "version");
  expectTag(fields[1], tags.set, "digestAlgorithms");
  const encap = childrenOf(buf, expectTag(fields[2], tags.sequence, "EncapsulatedContentInfo"));
  const contentType = readOid(buf, expectTag(encap[0], tags.oid, "eContentType"));
  let content: Buffer | null = null;
  if (encap[1]) {
    const octets = childrenOf(buf, expectTag(encap[1], 0xa0, "[0] eContent"))[0];
    if (!octets) corrupt("empty eContent");
    content = readOctetString(buf, octets);
  }
  const { certificates, signerInfosIndex } = readCertificateSet(buf, fields);
  const signerSet = expectTag(fields[signerInfosIndex], tags.set, "signerInfos");
  const signers = childrenOf(buf, signerSet).map((node) => parseSignerInfo(buf, node));
  return { contentType, content, certificates, signers };
}

function algorithmOid(buf: Buffer, node: DerNode | undefined, what: string): string {
  const parts = childrenOf(buf, expectTag(node, tags.sequence, what));
  return readOid(buf, expectTag(parts[0], tags.oid, what));
}

function parseSignerInfo(buf: Buffer, node: DerNode): SignerInfo {
  const fields = childrenOf(buf, expectTag(node, tags.sequence, "SignerInfo"));
  expectTag(fields[0], tags.integer, "SignerInfo version");
  const sid = fields[1];
  let issuer: Buffer | null = null;
  let serial: Buffer | null = null;
  let subjectKeyIdentifier: Buffer | null = null;
  if (sid?.tag === tags.sequence) {
    const [issuerNode, serialNode] = childrenOf(buf, sid);
    issuer = rawOf(buf, expectTag(issuerNode, tags.sequence, "issuer"));
    serial = contentOf(buf, expectTag(serialNode, tags.integer, "serial"));
  } else if (sid?.tag === 0x80) {
    subjectKeyIdentifier = contentOf(buf, sid);
  } else {
    corrupt("unknown signer identifier");
  }
  const digestAlgorithm = algorithmOid(buf, fields[2], "digestAlgorithm");
  let index = 3;
  let signedAttributes: Buffer | null = null;
  let messageDigest: Buffer | null = null;
  const attrs = fields[index];
  if (attrs?.tag === 0xa0) {
    // The signature covers the attributes encoded as a SET, not with their [0] IMPLICIT tag.
    signedAttributes = Buffer.from(rawOf(buf, attrs));
    signedAttributes[0] = tags.set;
    messageDigest = findMessageDigest(buf, attrs);
    index++;
  }
  const signatureAlgorithm = algorithmOid(buf, fields[index++], "signatureAlgorithm");
  const signature = contentOf(buf, expectTag(fields[index], tags.octetString, "signature"));
  return {
    digestAlgorithm,
    signatureAlgorithm,
    signature,
    signedAttributes,
    messageDigest,
    issuer,
    serial,
    subjectKeyIdentifier,
  };
}

function findMessageDigest(buf: Buffer, attrs: DerNode): Buffer | null {
  for (const attr of childrenOf(buf, attrs)) {
    const [type, values] = childrenOf(buf, expectTag(attr, tags.sequence, "attribute"));
    if (!type || readOid(buf, type) !== oids.messageDigest) continue;
    const value = childrenOf(buf, expectTag(values, tags.set, "attribute values"))[0];
    return contentOf(buf, expectTag(value, tags.octetString, "messageDigest"));
  }
  return null;
}

/** The certificate the signer names, by issuer + serial or by subject key identifier. */
export function findSignerCertificate(data: SignedData, signer: SignerInfo): Buffer | null {
  for (const der of data.certificates) {
    let identity: ReturnType<typeof readCertificateIdentity>;
    try {
      identity = readCertificateIdentity(der);
    } catch {
      continue;
    }
    if (signer.issuer && signer.serial) {
      if (identity.issuer.equals(signer.issuer) && identity.serial.equals(signer.serial)) return der;
    } else if (
      signer.subjectKeyIdentifier &&
      identity.subjectKeyIdentifier?.equals(signer.subjectKeyIdentifier)
    ) {
      return der;
    }
  }
  return null;
}

/** Checks one signer: digest of the content and the signature made with its certificate's key. */
export function verifySigner(data: SignedData, signer: SignerInfo, content: Buffer): boolean {
  const hash = digestNames[signer.digestAlgorithm];
  const kind = signatureKinds[signer.signatureAlgorithm];
  if (!hash || !kind) return false;
  const der = findSignerCertificate(data, signer);
  if (!der) return false;
  let signedBytes = content;
  if (signer.signedAttributes) {
    const digest = createHash(hash).update(content).digest();
    if (!signer.messageDigest || !digest.equals(signer.messageDigest)) return false;
    signedBytes = signer.signedAttributes;
  }
  try {
    const key = parseCertificate(der).publicKey;
    if (key.asymmetricKeyType !== keyTypes[kind]) return false;
    return verifySignature(hash, signedBytes, key, signer.signature);
  } catch {
    return false;
  }
}

/**
 * True when there is at least one signer and every signer verifies over the encapsulated content
 * (or `detachedContent` for a detached signature). Trust in the certificate chain is not judged here.
 */
export function verifySignedData(data: SignedData, detachedContent?: Buffer): boolean {
  const content = detachedContent ?? data.content;
  if (!content || data.signers.length === 0) return false;
  return data.signers.every((signer) => verifySigner(data, signer, content));
}
