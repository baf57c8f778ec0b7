import { createHash, type KeyObject, sign } from "node:crypto";
import { childrenOf, rawOf, readNode } from "../../cert/der.ts";
import { der } from "./der-writer.ts";
import { writeXmlPlist } from "./plist-writer.ts";

/** The signing identity of a .p12: its leaf certificate, the chain above it, and the private key. */
export interface SigningIdentity {
  certificate: Buffer;
  chain: Buffer[];
  privateKey: KeyObject;
}

const oid = {
  data: "1.2.840.113549.1.7.1",
  signedData: "1.2.840.113549.1.7.2",
  contentType: "1.2.840.113549.1.9.3",
  messageDigest: "1.2.840.113549.1.9.4",
  signingTime: "1.2.840.113549.1.9.5",
  sha256: "2.16.840.1.101.3.4.2.1",
  rsaEncryption: "1.2.840.113549.1.1.1",
  ecdsaWithSha256: "1.2.840.10045.4.3.2",
  /** Apple's signed attributes naming the CodeDirectory hashes (plist of truncated hashes; full hashes). */
  cdHashesPlist: "1.2.840.113635.100.9.1",
  cdHashes2: "1.2.840.113635.100.9.2",
};

const sha256Algorithm = () => der.sequence(der.oid(oid.sha256), der.null());

function attribute(type: string, value: Buffer): Buffer {
  return der.sequence(der.oid(type), der.set(value));
}

/** IssuerAndSerialNumber, copied from the certificate's own encoding. */
function issuerAndSerial(certificate: Buffer): Buffer {
  const root = readNode(certificate);
  const tbsNode = childrenOf(certificate, root)[0];
  if (!tbsNode) throw new Error("certificate has no TBSCertificate");
  const fields = childrenOf(certificate, tbsNode);
  // An explicit [0] version comes first in v3 certificates.
  const start = fields[0]?.tag === 0xa0 ? 1 : 0;
  const serial = fields[start];
  const issuer = fields[start + 2];
  if (!serial || !issuer) throw new Error("certificate lacks issuer or serial number");
  return der.sequence(rawOf(certificate, issuer), rawOf(certificate, serial));
}

function signatureAlgorithm(key: KeyObject): Buffer {
  if (key.asymmetricKeyType === "rsa") return der.sequence(der.oid(oid.rsaEncryption), der.null());
  if (key.asymmetricKeyType === "ec") return der.sequence(der.oid(oid.ecdsaWithSha256));
  throw new Error(`a ${key.asymmetricKeyType} key cannot sign code; Apple identities use RSA or EC keys`);
}

/**
 * A detached CMS SignedData over a CodeDirectory, as codesign makes it: SHA-256, the signer's
 * chain, and signed attributes that name the CodeDirectory hash (so the kernel can match the
 * signature to the directory it loads).
 */
export function signCodeDirectory(
  codeDirectory: Buffer,
  identity: SigningIdentity,
  signingTime: Date,
): Buffer {
  const digest = createHash("sha256").update(codeDirectory).digest();
  const cdHashesPlist = writeXmlPlist({ cdhashes: [digest.subarray(0, 20)] });
  const attributes = [
    attribute(oid.contentType, der.oid(oid.data)),
    attribute(oid.signingTime, der.time(signingTime)),
    attribute(oid.messageDigest, der.octetString(digest)),
    attribute(oid.cdHashesPlist, der.octetString(cdHashesPlist)),
    attribute(oid.cdHashes2, der.sequence(der.oid(oid.sha256), der.octetString(digest))),
  ];
  // The signature covers the attributes encoded as a SET; the SignerInfo carries them as [0].
  const signedSet = der.setOf(attributes);
  const signature = sign("sha256", signedSet, identity.privateKey);
  const signerInfo = der.sequence(
    der.integer(1),
    issuerAndSerial(identity.certificate),
    sha256Algorithm(),
    Buffer.concat([Buffer.from([0xa0]), signedSet.subarray(1)]),
    signatureAlgorithm(identity.privateKey),
    der.octetString(signature),
  );
  const signedData = der.sequence(
    der.integer(1),
    der.set(sha256Algorithm()),
    der.sequence(der.oid(oid.data)),
    der.context(0, Buffer.concat([identity.certificate, ...identity.chain])),
    der.set(signerInfo),
  );
  return der.sequence(der.oid(oid.signedData), der.context(0, signedData));
}

/** Room to keep for the CMS blob before it exists: the certificates plus attributes and signature. */
export function estimateSignatureSize(identity: SigningIdentity): number {
  const certificates = [identity.certificate, ...identity.chain].reduce((sum, cert) => sum + cert.length, 0);
  return certificates + 4096;
}
