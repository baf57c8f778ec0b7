import { createPrivateKey, createPublicKey, type KeyObject, X509Certificate } from "node:crypto";
import { ResignError, type SigningIdentity } from "@tarmac/inspector/apple-sign";
import forge from "node-forge";

/**
 * Opens a .p12 (PKCS#12) with its password: the one private key, the certificate that matches
 * it, and the other certificates as its chain. Keychain Access exports (3DES/RC2, SHA-1 MAC) and
 * OpenSSL 3's (AES, PBKDF2 with SHA-256) both open.
 */
export function readP12Identity(p12: Buffer, password: string): SigningIdentity {
  let bags: forge.pkcs12.Pkcs12Pfx;
  try {
    const asn1 = forge.asn1.fromDer(forge.util.createBuffer(p12.toString("binary")));
    bags = forge.pkcs12.pkcs12FromAsn1(asn1, password);
  } catch (error) {
    const wrongPassword = /password|mac/i.test((error as Error).message);
    throw new ResignError(
      "identity",
      wrongPassword ? "The p12 password is wrong." : "The p12 file is not a readable PKCS#12 file.",
    );
  }
  const bagsOf = (type: string | undefined) => (type ? (bags.getBags({ bagType: type })[type] ?? []) : []);
  const keyBags = [...bagsOf(forge.pki.oids.pkcs8ShroudedKeyBag), ...bagsOf(forge.pki.oids.keyBag)];
  const certBags = bagsOf(forge.pki.oids.certBag);
  const keyBag = keyBags[0];
  if (keyBags.length !== 1 || !keyBag) {
    throw new ResignError("identity", "The p12 file must hold exactly one private key.");
  }
  const privateKey = keyFromBag(keyBag);
  const certificates: Buffer[] = [];
  for (const bag of certBags) {
    if (bag.cert)
      certificates.push(
        Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(bag.cert)).getBytes(), "binary"),
      );
  }
  const publicDer = (der: Buffer): Buffer | null => {
    try {
      return createPublicDer(der);
    } catch {
      return null;
    }
  };
  const wanted = publicKeyOf(privateKey);
  const certificate = certificates.find((der) => publicDer(der)?.equals(wanted));
  if (!certificate) throw new ResignError("identity", "The p12 file has no certificate for its private key.");
  return { certificate, chain: certificates.filter((der) => der !== certificate), privateKey };
}

function keyFromBag(bag: forge.pkcs12.Bag) {
  if (bag.key) return createPrivateKey(forge.pki.privateKeyToPem(bag.key));
  // forge reads only RSA keys; an EC key arrives as its PKCS#8 structure.
  if (bag.asn1) {
    const der = Buffer.from(forge.asn1.toDer(bag.asn1).getBytes(), "binary");
    return createPrivateKey({ key: der, format: "der", type: "pkcs8" });
  }
  throw new ResignError("identity", "The p12 file's private key cannot be read.");
}

function publicKeyOf(key: KeyObject): Buffer {
  return createPublicKey(key).export({ format: "der", type: "spki" });
}

function createPublicDer(certificate: Buffer): Buffer {
  return new X509Certificate(certificate).publicKey.export({ format: "der", type: "spki" });
}
