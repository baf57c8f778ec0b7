import { readCertificateSet, signedDataFields } from "../cert/cms.ts";
import { childrenOf, contentOf, type DerNode, expectTag, rawOf, tags } from "../cert/der.ts";
import { readCertificateIdentity, summarizeCertificate } from "../cert/x509.ts";
import type { SigningInfo } from "../types.ts";

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
  const fields = signedDataFields(der);
  const { certificates, signerInfosIndex } = readCertificateSet(der, fields);
  const signerName = readSignerName(der, fields[signerInfosIndex]);
  const signerFirst = [...certificates].sort(
    (a, b) => Number(isSigner(b, signerName)) - Number(isSigner(a, signerName)),
  );
  return { schemes: ["authenticode"], signed: true, certificates: signerFirst.map(summarizeCertificate) };
}
