import { createHash, verify, X509Certificate } from "node:crypto";
import forge from "node-forge";
import plist from "plist";

/** A device's reply to the profile service, as read from its signed plist. */
export interface DeviceReply {
  udid: string;
  product: string | null;
  version: string | null;
  serial: string | null;
  imei: string | null;
  challenge: string | null;
}

export type DeviceReplyFailure =
  | "too_large"
  | "malformed"
  | "unsigned"
  | "unsupported"
  | "bad_signature"
  | "bad_plist"
  | "missing_udid"
  | "bad_udid";

export class DeviceReplyError extends Error {
  override readonly name = "DeviceReplyError";
  constructor(
    readonly reason: DeviceReplyFailure,
    message: string,
  ) {
    super(message);
  }
}

/** Real replies are a few KB (plist plus Apple's certificate chain); anything bigger is refused unread. */
export const maxDeviceReplyBytes = 64 * 1024;
const udidPattern = /^[0-9A-Fa-f-]{24,40}$/;

const oid = {
  signedData: "1.2.840.113549.1.7.2",
  messageDigest: "1.2.840.113549.1.9.4",
};
const digestByOid: Record<string, string> = {
  "1.3.14.3.2.26": "sha1",
  "2.16.840.1.101.3.4.2.1": "sha256",
  "2.16.840.1.101.3.4.2.2": "sha384",
  "2.16.840.1.101.3.4.2.3": "sha512",
};

type Asn1 = forge.asn1.Asn1;
// The published typings only know the older boolean `strict` argument.
const fromDer = forge.asn1.fromDer as unknown as (
  bytes: forge.util.ByteBuffer,
  options: { parseAllBytes?: boolean; decodeBitStrings?: boolean },
) => Asn1;
const { Class, Type } = forge.asn1;

/**
 * Reads the PKCS#7 SignedData an iOS device POSTs after installing the profile service payload.
 *
 * The signature over the content is checked against the signer certificate carried in the
 * message, which proves the plist was not altered in transit. That certificate is issued by
 * Apple's device CA, which cannot be checked offline (no published root to pin and no
 * revocation data here), so the chain is not verified: the challenge is what ties a reply to
 * the enrollment that asked for it.
 */
export function readDeviceReply(der: Buffer): DeviceReply {
  if (der.length > maxDeviceReplyBytes) {
    throw new DeviceReplyError("too_large", `Device reply exceeds ${maxDeviceReplyBytes} bytes.`);
  }
  let content: Buffer;
  try {
    content = verifySignedContent(parseSignedData(der));
  } catch (error) {
    // Whatever odd structure a sender makes up, callers only ever see the typed error.
    if (error instanceof DeviceReplyError) throw error;
    throw new DeviceReplyError("malformed", "Device reply structure is invalid.");
  }
  return parseAttributes(content);
}

function parseSignedData(der: Buffer): Asn1[] {
  let root: Asn1;
  try {
    root = fromDer(forge.util.createBuffer(der.toString("binary")), {
      parseAllBytes: true,
      // Keeps BIT STRINGs as raw bytes, so re-encoded certificates match the originals.
      decodeBitStrings: false,
    });
  } catch {
    throw new DeviceReplyError("malformed", "Device reply is not a DER/BER structure.");
  }
  const [type, wrapped] = children(root);
  if (!type || oidOf(type) !== oid.signedData) {
    throw new DeviceReplyError("unsigned", "Device reply is not a PKCS#7 SignedData message.");
  }
  const signedData = wrapped ? children(wrapped)[0] : undefined;
  if (!signedData || signedData.type !== Type.SEQUENCE) {
    throw new DeviceReplyError("malformed", "SignedData is missing.");
  }
  return children(signedData);
}

function verifySignedContent(fields: Asn1[]): Buffer {
  // version, digestAlgorithms, encapContentInfo, [0] certificates, [1] crls, signerInfos
  const encap = fields[2];
  const signerInfos = fields.at(-1);
  const certificates = fields.find((f) => f.tagClass === Class.CONTEXT_SPECIFIC && f.type === 0);
  const explicitContent = encap ? children(encap)[1] : undefined;
  if (!explicitContent) throw new DeviceReplyError("unsigned", "Device reply has no attached content.");
  const content = octets(children(explicitContent)[0]);
  const signers = signerInfos?.type === Type.SET ? children(signerInfos) : [];
  if (signers.length === 0) throw new DeviceReplyError("unsigned", "Device reply carries no signature.");
  if (!certificates) throw new DeviceReplyError("unsigned", "Device reply carries no signer certificate.");
  // Every signer must verify: an extra, unverifiable signer is as suspect as a bad one.
  for (const signer of signers) verifySigner(signer, children(certificates), content);
  return content;
}

function verifySigner(signer: Asn1, certificates: Asn1[], content: Buffer): void {
  const [, sid, digestAlg, ...rest] = children(signer);
  const signedAttrs =
    rest[0]?.tagClass === Class.CONTEXT_SPECIFIC && rest[0].type === 0 ? rest.shift() : undefined;
  const signature = rest[1];
  const hash = digestByOid[oidOf(children(digestAlg)[0]) ?? ""];
  if (!hash) throw new DeviceReplyError("unsupported", "Unsupported digest algorithm.");
  if (!sid || sid.type !== Type.SEQUENCE || !signature) {
    throw new DeviceReplyError("unsupported", "Unsupported signer identifier.");
  }
  const certificate = certificates.find((c) => matchesIssuerAndSerial(c, sid));
  if (!certificate) throw new DeviceReplyError("bad_signature", "Signer certificate is missing.");

  let signedBytes = content;
  if (signedAttrs) {
    // With signed attributes the signature covers them (re-tagged as a SET), and they carry the
    // content digest.
    const attrs = children(signedAttrs);
    const digestAttr = attrs.find((a) => oidOf(children(a)[0]) === oid.messageDigest);
    const claimed = digestAttr ? octets(children(children(digestAttr)[1])[0]) : null;
    if (!claimed?.equals(createHash(hash).update(content).digest())) {
      throw new DeviceReplyError("bad_signature", "Content digest does not match the signature.");
    }
    const asSet = forge.asn1.create(Class.UNIVERSAL, Type.SET, true, attrs);
    signedBytes = Buffer.from(forge.asn1.toDer(asSet).getBytes(), "binary");
  }
  const signatureBytes = octets(signature);
  let ok = false;
  try {
    const key = new X509Certificate(derOf(certificate)).publicKey;
    ok = verify(hash, signedBytes, key, signatureBytes);
  } catch {
    throw new DeviceReplyError("unsupported", "Signer certificate or signature algorithm is unsupported.");
  }
  if (!ok) throw new DeviceReplyError("bad_signature", "Device reply signature does not verify.");
}

function matchesIssuerAndSerial(certificate: Asn1, sid: Asn1): boolean {
  const [issuer, serial] = children(sid);
  const tbs = children(children(certificate)[0] as Asn1);
  // tbsCertificate: [0] version (optional), serialNumber, signature, issuer, ...
  const offset = tbs[0]?.tagClass === Class.CONTEXT_SPECIFIC ? 1 : 0;
  const certSerial = tbs[offset];
  const certIssuer = tbs[offset + 2];
  if (!issuer || !serial || !certSerial || !certIssuer) return false;
  return derOf(issuer).equals(derOf(certIssuer)) && derOf(serial).equals(derOf(certSerial));
}

function parseAttributes(content: Buffer): DeviceReply {
  let parsed: unknown;
  const xml = content.toString("utf8");
  try {
    // The XML parser reports to the console before throwing; plain text never reaches it.
    if (!xml.trimStart().startsWith("<")) throw new Error("not XML");
    parsed = plist.parse(xml);
  } catch {
    throw new DeviceReplyError("bad_plist", "Device reply content is not an XML property list.");
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new DeviceReplyError("bad_plist", "Device reply content is not a dictionary.");
  }
  const dict = parsed as Record<string, unknown>;
  const text = (key: string) => (typeof dict[key] === "string" ? (dict[key] as string).trim() || null : null);
  const udid = text("UDID");
  if (!udid) throw new DeviceReplyError("missing_udid", "Device reply has no UDID.");
  if (!udidPattern.test(udid)) throw new DeviceReplyError("bad_udid", "Device reply UDID is malformed.");
  return {
    udid,
    product: text("PRODUCT"),
    version: text("VERSION"),
    serial: text("SERIAL"),
    imei: text("IMEI"),
    challenge: text("CHALLENGE"),
  };
}

function children(node: Asn1 | undefined): Asn1[] {
  return node && Array.isArray(node.value) ? (node.value as Asn1[]) : [];
}

function oidOf(node: Asn1 | undefined): string | null {
  if (!node || node.type !== Type.OID || typeof node.value !== "string") return null;
  return forge.asn1.derToOid(node.value);
}

/** An OCTET STRING's bytes; BER senders may split it into constructed chunks. */
function octets(node: Asn1 | undefined): Buffer {
  if (!node || node.type !== Type.OCTETSTRING) {
    throw new DeviceReplyError("malformed", "Expected an octet string.");
  }
  if (typeof node.value === "string") return Buffer.from(node.value, "binary");
  return Buffer.concat(children(node).map(octets));
}

function derOf(node: Asn1): Buffer {
  return Buffer.from(forge.asn1.toDer(node).getBytes(), "binary");
}
