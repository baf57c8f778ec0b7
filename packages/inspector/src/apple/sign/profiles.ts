import { createHash, X509Certificate } from "node:crypto";
import { parseSignedData, verifySignedData } from "../../cert/cms.ts";
import { parsePlistDict } from "../../plist/index.ts";
import { isDict, type PlistDict, stringOf } from "../../plist/types.ts";

/** A re-signing request that cannot be carried out as given; the message says what to fix. */
export class ResignError extends Error {
  constructor(
    readonly reason:
      | "identity"
      | "profile"
      | "profile_mismatch"
      | "certificate_not_in_profile"
      | "expired"
      | "bundle"
      | "entitlements",
    message: string,
  ) {
    super(message);
  }
}

export interface Profile {
  name: string;
  uuid: string;
  teamId: string;
  /** The application identifier without the team prefix: "com.example.app", "com.example.*" or "*". */
  appIdPattern: string;
  entitlements: PlistDict;
  /** SHA-256 fingerprints (hex) of the developer certificates the profile allows. */
  certificateFingerprints: Set<string>;
  expires: Date;
  der: Buffer;
}

const fingerprint = (der: Buffer) => createHash("sha256").update(der).digest("hex");

export function readProfile(der: Buffer, label: string): Profile {
  let dict: PlistDict;
  try {
    const signed = parseSignedData(der);
    if (!signed.content || !verifySignedData(signed)) throw new Error("bad signature");
    dict = parsePlistDict(signed.content, "provisioning profile");
  } catch {
    throw new ResignError("profile", `${label} is not a readable, signed provisioning profile.`);
  }
  const entitlements = isDict(dict.Entitlements) ? dict.Entitlements : {};
  const applicationId = stringOf(entitlements["application-identifier"]);
  const teamId = stringOf(Array.isArray(dict.TeamIdentifier) ? dict.TeamIdentifier[0] : undefined);
  const expires = new Date(stringOf(dict.ExpirationDate) ?? "");
  if (
    !applicationId ||
    !teamId ||
    Number.isNaN(expires.getTime()) ||
    !applicationId.startsWith(`${teamId}.`)
  ) {
    throw new ResignError("profile", `${label} lacks its team, application identifier or expiration date.`);
  }
  const certificates = Array.isArray(dict.DeveloperCertificates) ? dict.DeveloperCertificates : [];
  return {
    name: stringOf(dict.Name) ?? label,
    uuid: stringOf(dict.UUID) ?? "",
    teamId,
    appIdPattern: applicationId.slice(teamId.length + 1),
    entitlements,
    certificateFingerprints: new Set(certificates.filter(Buffer.isBuffer).map(fingerprint)),
    expires,
    der,
  };
}

function patternMatches(pattern: string, bundleId: string): boolean {
  if (pattern === bundleId || pattern === "*") return true;
  return pattern.endsWith(".*") && bundleId.startsWith(pattern.slice(0, -1));
}

/** The profile for a bundle id: an explicit app id wins over the longest wildcard. */
export function profileFor(profiles: Profile[], bundleId: string): Profile | null {
  const explicit = profiles.find((profile) => profile.appIdPattern === bundleId);
  if (explicit) return explicit;
  const wildcards = profiles
    .filter((profile) => profile.appIdPattern !== bundleId && patternMatches(profile.appIdPattern, bundleId))
    .sort((a, b) => b.appIdPattern.length - a.appIdPattern.length);
  return wildcards[0] ?? null;
}

/** The identity may sign with this profile: its certificate is listed and neither has expired. */
export function checkProfileForIdentity(profile: Profile, certificate: Buffer, now: Date): void {
  if (profile.expires.getTime() <= now.getTime()) {
    throw new ResignError(
      "expired",
      `The provisioning profile "${profile.name}" expired on ${profile.expires.toISOString()}.`,
    );
  }
  if (!profile.certificateFingerprints.has(fingerprint(certificate))) {
    throw new ResignError(
      "certificate_not_in_profile",
      `The p12's certificate is not one of the developer certificates of the provisioning profile "${profile.name}".`,
    );
  }
}

export function checkCertificateDates(certificate: Buffer, now: Date): X509Certificate {
  const x509 = new X509Certificate(certificate);
  if (new Date(x509.validTo).getTime() <= now.getTime()) {
    throw new ResignError(
      "expired",
      `The p12's certificate expired on ${new Date(x509.validTo).toISOString()}.`,
    );
  }
  if (new Date(x509.validFrom).getTime() > now.getTime()) {
    throw new ResignError(
      "expired",
      `The p12's certificate is not valid before ${new Date(x509.validFrom).toISOString()}.`,
    );
  }
  return x509;
}

/** Subject fields of the signing certificate that the signature names. */
export function certificateNames(x509: X509Certificate): { commonName: string; teamId: string } {
  const field = (name: string) =>
    x509.subject
      .split("\n")
      .find((line) => line.startsWith(`${name}=`))
      ?.slice(name.length + 1) ?? "";
  return { commonName: field("CN"), teamId: field("OU") };
}

/**
 * The entitlements a bundle is signed with: the profile's, with a wildcard application
 * identifier narrowed to the bundle's id (keychain groups keep their wildcard, as Xcode does).
 */
export function entitlementsFor(profile: Profile, bundleId: string, custom: PlistDict | null): PlistDict {
  const base: PlistDict = custom ? { ...custom } : { ...profile.entitlements };
  base["application-identifier"] = `${profile.teamId}.${bundleId}`;
  if (profile.entitlements["com.apple.developer.team-identifier"] !== undefined || !custom) {
    base["com.apple.developer.team-identifier"] = profile.teamId;
  }
  return base;
}
