import { randomUUID } from "node:crypto";
import forge from "node-forge";
import plist from "plist";
import type { SigningIdentity } from "./signing-identity.ts";

export {
  loadOrCreateSigningIdentity,
  type SigningIdentity,
  SigningIdentityError,
} from "./signing-identity.ts";

export interface ProfileServiceInput {
  /** Where the device POSTs its signed attributes; must be reachable from the phone over HTTPS. */
  url: string;
  organization: string;
  displayName: string;
  /** Reverse-DNS identifier of the profile, e.g. `com.example.udid`. */
  identifier: string;
  /** Echoed back by the device, so the reply can be tied to the request that asked for it. */
  challenge: string;
}

/** What a "Profile Service" payload asks the device to send back. */
export const deviceAttributes = ["UDID", "IMEI", "ICCID", "VERSION", "PRODUCT", "SERIAL"] as const;

/**
 * The iOS "Profile Service" .mobileconfig: installing it makes the device POST its identifiers
 * to `url` and install nothing else.
 */
export function buildProfileServicePayload(input: ProfileServiceInput): string {
  return plist.build({
    PayloadContent: {
      URL: input.url,
      DeviceAttributes: [...deviceAttributes],
      Challenge: input.challenge,
    },
    PayloadOrganization: input.organization,
    PayloadDisplayName: input.displayName,
    PayloadVersion: 1,
    // iOS replaces an installed profile with the same identifier; a fresh UUID marks a new one.
    PayloadUUID: randomUUID().toUpperCase(),
    PayloadIdentifier: input.identifier,
    PayloadType: "Profile Service",
  });
}

/**
 * CMS SignedData (DER) with the profile attached, signed with SHA-256 and carrying the
 * certificate: iOS refuses some unsigned profiles and shows signed ones with their signer.
 */
export function signProfile(xml: string, identity: SigningIdentity): Buffer {
  const p7 = forge.pkcs7.createSignedData();
  p7.content = forge.util.createBuffer(xml, "utf8");
  p7.addCertificate(identity.certificate);
  p7.addSigner({
    key: identity.privateKey,
    certificate: identity.certificate,
    digestAlgorithm: forge.pki.oids.sha256 as string,
    authenticatedAttributes: [
      { type: forge.pki.oids.contentType as string, value: forge.pki.oids.data as string },
      { type: forge.pki.oids.messageDigest as string },
      { type: forge.pki.oids.signingTime as string },
    ],
  });
  p7.sign();
  return Buffer.from(forge.asn1.toDer(p7.toAsn1()).getBytes(), "binary");
}
