import {
  childrenOf,
  contentOf,
  type DerNode,
  expectTag,
  rawOf,
  readNode,
  readOid,
  tags,
} from "../cert/der.ts";
import { readCertificateIdentity, summarizeCertificate } from "../cert/x509.ts";
import { InspectError } from "../errors.ts";
import type { SigningInfo } from "../types.ts";

const signedDataOid = "1.2.840.113549.1.7.2";

/** Unsigned Windows packages still report a signing block, so "not signed" is explicit. */
export const unsignedWindows: SigningInfo = { schemes: [], signed: false, certificates: [] };

interface SignerName {
  issuer: Buffer;
  serial: Buffer;
}

function readSignerName(buf: Buffer, signerInfos: DerNode | undefined): SignerName | null {
  const signer = signerInfos?.tag === tags.set ? childrenOf(buf, signerInfos)[0] : undefined;
  const sid = signer ? childrenOf(buf, expectTag(signer, tags.sequence, "SignerInfo"))[1] : undefined;
  if (sid?.tag !== tags.sequence) return null;
  const [issuer, serial] = childrenOf(buf, sid);
  if (!issuer || !serial) return null;
  return { issuer: rawOf(buf, issuer), serial: contentOf(buf, serial) };
}

function isSigner(der: Buffer, name: SignerName | null): boolean {
  if (!name) return false;
  const identity = readCertificateIdentity(der);
  return identity.issuer.equals(name.issuer) && identity.serial.equals(name.serial);
}

/**
 * Summarizes an Authenticode PKCS#7 SignedData (MSI DigitalSignature stream, APPX p7x body):
 * the signer's certificate first, then the rest of the set. Authenticode content is a PKCS#7
 * v1.5 SpcIndirectDataContent SEQUENCE rather than a CMS OCTET STRING, so only the certificate
 * set and the signer's name are read here. The digest over the package is not recomputed; a
 * signature that parses counts as present.
 */
export function readAuthenticode(der: Buffer): SigningInfo {
  const info = childrenOf(der, expectTag(readNode(der, 0), tags.sequence, "ContentInfo"));
  if (!info[0] || readOid(der, info[0]) !== signedDataOid) {
    throw new InspectError("corrupt", "Authenticode signature is not PKCS#7 SignedData");
  }
  const signed = expectTag(
    childrenOf(der, expectTag(info[1], 0xa0, "[0] content"))[0],
    tags.sequence,
    "SignedData",
  );
  const fields = childrenOf(der, signed);
  let index = 3;
  const certificates: Buffer[] = [];
  if (fields[index]?.tag === 0xa0) {
    for (const cert of childrenOf(der, fields[index] as DerNode)) {
      if (cert.tag === tags.sequence) certificates.push(rawOf(der, cert));
    }
    index++;
  }
  if (fields[index]?.tag === 0xa1) index++;
  const signerName = readSignerName(der, fields[index]);
  const signerFirst = [...certificates].sort(
    (a, b) => Number(isSigner(b, signerName)) - Number(isSigner(a, signerName)),
  );
  return { schemes: ["authenticode"], signed: true, certificates: signerFirst.map(summarizeCertificate) };
}
