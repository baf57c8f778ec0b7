import { X509Certificate } from "node:crypto";
import { InspectError } from "../errors.ts";
import type { CertificateInfo } from "../types.ts";
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

/** Parses a DER certificate with node's own X.509 parser, turning its errors into InspectError. */
export function parseCertificate(der: Buffer): X509Certificate {
  try {
    return new X509Certificate(der);
  } catch (error) {
    throw new InspectError("corrupt", `certificate does not parse: ${(error as Error).message}`);
  }
}

function toIsoDate(text: string): string {
  const date = new Date(text);
  if (Number.isNaN(date.getTime()))
    throw new InspectError("corrupt", `certificate date "${text}" does not parse`);
  return date.toISOString();
}

/** One line per distinguished name, in certificate order: "C=US, O=Example, CN=Signer". */
function formatName(multiline: string): string {
  return multiline
    .split("\n")
    .filter((part) => part.length > 0)
    .join(", ");
}

export function summarizeCertificate(der: Buffer): CertificateInfo {
  const cert = parseCertificate(der);
  return {
    subject: formatName(cert.subject),
    issuer: formatName(cert.issuer),
    sha256: cert.fingerprint256.replaceAll(":", "").toLowerCase(),
    not_before: toIsoDate(cert.validFrom),
    not_after: toIsoDate(cert.validTo),
  };
}

export interface CertificateIdentity {
  /** DER of the issuer Name, compared byte for byte with a SignerInfo's IssuerAndSerialNumber. */
  issuer: Buffer;
  /** Content octets of the serial number INTEGER. */
  serial: Buffer;
  subjectKeyIdentifier: Buffer | null;
}

const subjectKeyIdentifierOid = "2.5.29.14";

/** Reads the fields a CMS signer uses to name its certificate, straight from the TBSCertificate. */
export function readCertificateIdentity(der: Buffer): CertificateIdentity {
  const cert = expectTag(readNode(der, 0), tags.sequence, "Certificate");
  const tbs = expectTag(childrenOf(der, cert)[0], tags.sequence, "TBSCertificate");
  const fields = childrenOf(der, tbs);
  let index = fields[0]?.tag === 0xa0 ? 1 : 0; // optional [0] version
  const serial = expectTag(fields[index++], tags.integer, "serial number");
  index++; // signature algorithm
  const issuer = expectTag(fields[index++], tags.sequence, "issuer");
  return {
    issuer: rawOf(der, issuer),
    serial: contentOf(der, serial),
    subjectKeyIdentifier: findSubjectKeyIdentifier(der, fields.slice(index)),
  };
}

function findSubjectKeyIdentifier(der: Buffer, rest: DerNode[]): Buffer | null {
  const wrapper = rest.find((node) => node.tag === 0xa3);
  if (!wrapper) return null;
  const list = expectTag(childrenOf(der, wrapper)[0], tags.sequence, "extensions");
  for (const ext of childrenOf(der, list)) {
    const parts = childrenOf(der, expectTag(ext, tags.sequence, "extension"));
    if (!parts[0] || readOid(der, parts[0]) !== subjectKeyIdentifierOid) continue;
    const value = expectTag(parts[parts.length - 1], tags.octetString, "extension value");
    const inner = readOctetString(der, value);
    return contentOf(inner, expectTag(readNode(inner, 0), tags.octetString, "key identifier"));
  }
  return null;
}
