import { createPrivateKey, type KeyObject } from "node:crypto";
import forge from "node-forge";
import { KeystoreError } from "./keystore-jks.ts";

/** A PKCS #12 keystore's private keys by alias (friendly name), each with its certificate chain. */
export interface Pkcs12KeyEntry {
  alias: string;
  privateKey: KeyObject;
  chain: Buffer[];
}

const derOf = (asn1: forge.asn1.Asn1) => Buffer.from(forge.asn1.toDer(asn1).getBytes(), "binary");

function parse(data: Buffer, password: string): forge.pkcs12.Pkcs12Pfx {
  let asn1: forge.asn1.Asn1;
  try {
    asn1 = forge.asn1.fromDer(data.toString("binary"));
  } catch {
    throw new KeystoreError("bad_file", "the file is neither a JKS nor a PKCS#12 keystore");
  }
  try {
    return forge.pkcs12.pkcs12FromAsn1(asn1, true, password);
  } catch (error) {
    const message = (error as Error).message;
    if (/MAC could not be verified|Invalid password/i.test(message)) {
      throw new KeystoreError("store_password", "the keystore password is wrong");
    }
    if (/unsupported|Unknown|not supported/i.test(message)) throw new KeystoreError("unsupported", message);
    // Wrong passwords on encrypted bags without a MAC surface as garbled ASN.1.
    throw new KeystoreError("store_password", "the keystore could not be opened with this password");
  }
}

/**
 * Reads keys and certificates. Certificates pair with keys by localKeyId (as keytool and
 * openssl write them), falling back to the friendly name. keytool and openssl protect a
 * PKCS#12 key with the store password, so that one password opens everything.
 */
export function readPkcs12(data: Buffer, storePassword: string): Pkcs12KeyEntry[] {
  const pfx = parse(data, storePassword);
  const bagsOf = (type: string): forge.pkcs12.Bag[] => pfx.getBags({ bagType: type })[type] ?? [];
  const oids = forge.pki.oids as Record<string, string>;
  const certBags = bagsOf(oids.certBag as string);
  const keyBags = [...bagsOf(oids.pkcs8ShroudedKeyBag as string), ...bagsOf(oids.keyBag as string)];
  const certificates = certBags.map((bag) => ({
    der: bag.cert ? derOf(forge.pki.certificateToAsn1(bag.cert)) : derOf(bag.asn1 as forge.asn1.Asn1),
    keyId: bag.attributes.localKeyId?.[0] as string | undefined,
    name: bag.attributes.friendlyName?.[0] as string | undefined,
  }));
  return keyBags.map((bag, index) => {
    const keyId = bag.attributes.localKeyId?.[0] as string | undefined;
    const alias = (bag.attributes.friendlyName?.[0] as string | undefined) ?? String(index + 1);
    const own = certificates.filter((cert) => (keyId && cert.keyId === keyId) || cert.name === alias);
    const others = certificates.filter((cert) => !own.includes(cert));
    // forge turns RSA keys into its own objects and leaves others (EC) as the PKCS#8 ASN.1.
    const der = bag.key
      ? derOf(forge.pki.wrapRsaPrivateKey(forge.pki.privateKeyToAsn1(bag.key)))
      : derOf(bag.asn1 as forge.asn1.Asn1);
    return {
      alias,
      privateKey: createPrivateKey({ key: der, format: "der", type: "pkcs8" }),
      chain: [...own, ...others].map((cert) => cert.der),
    };
  });
}
