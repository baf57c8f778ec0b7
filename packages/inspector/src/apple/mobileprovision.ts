import { parseSignedData, verifySignedData } from "../cert/cms.ts";
import { summarizeCertificate } from "../cert/x509.ts";
import { InspectError } from "../errors.ts";
import { isDict, type PlistDict, type PlistValue, parsePlistDict, stringOf } from "../plist/index.ts";
import type { CertificateInfo, ProvisioningInfo } from "../types.ts";

/**
 * Provisioning profiles (embedded.mobileprovision): CMS SignedData around an XML plist. The
 * signature is checked on its own merits; whether Apple's root issued the signer is not judged.
 */

function requireString(dict: PlistDict, key: string): string {
  const value = stringOf(dict[key]);
  if (value === null) throw new InspectError("corrupt", `provisioning profile lacks ${key}`);
  return value;
}

/** Entitlements go into JSON output: bigints become strings and data becomes base64. */
function toJsonValue(value: PlistValue): unknown {
  if (typeof value === "bigint") return value.toString();
  if (Buffer.isBuffer(value)) return value.toString("base64");
  if (Array.isArray(value)) return value.map(toJsonValue);
  if (isDict(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      Object.defineProperty(out, key, {
        value: toJsonValue(inner),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return value;
}

function readCertificates(value: PlistValue | undefined): CertificateInfo[] {
  if (!Array.isArray(value)) return [];
  const out: CertificateInfo[] = [];
  for (const item of value) {
    if (!Buffer.isBuffer(item)) continue;
    try {
      out.push(summarizeCertificate(item));
    } catch (error) {
      // One unreadable developer certificate does not make the profile unreadable.
      if (!(error instanceof InspectError)) throw error;
    }
  }
  return out;
}

function kindOf(dict: PlistDict, devices: string[] | null): ProvisioningInfo["kind"] {
  if (dict.ProvisionsAllDevices === true) return "enterprise";
  if (devices) {
    const entitlements = isDict(dict.Entitlements) ? dict.Entitlements : {};
    return entitlements["get-task-allow"] === true ? "development" : "ad_hoc";
  }
  return "app_store";
}

export function readProvisioningProfile(der: Buffer, now: Date = new Date()): ProvisioningInfo {
  const signed = parseSignedData(der);
  if (!signed.content) throw new InspectError("corrupt", "provisioning profile has no content");
  const dict = parsePlistDict(signed.content, "provisioning profile");
  const devices = Array.isArray(dict.ProvisionedDevices)
    ? dict.ProvisionedDevices.filter((udid): udid is string => typeof udid === "string")
    : null;
  const teamIds = Array.isArray(dict.TeamIdentifier) ? dict.TeamIdentifier : [];
  const expires = requireString(dict, "ExpirationDate");
  const entitlements = toJsonValue(isDict(dict.Entitlements) ? dict.Entitlements : {}) as Record<
    string,
    unknown
  >;
  return {
    signature_valid: verifySignedData(signed),
    kind: kindOf(dict, devices),
    name: requireString(dict, "Name"),
    uuid: requireString(dict, "UUID"),
    team_id: stringOf(teamIds[0]) ?? "",
    team_name: stringOf(dict.TeamName) ?? "",
    app_id_name: stringOf(dict.AppIDName) ?? undefined,
    created: requireString(dict, "CreationDate"),
    expires,
    expired: Date.parse(expires) <= now.getTime(),
    devices: devices ?? [],
    provisions_all_devices: dict.ProvisionsAllDevices === true,
    entitlements,
    certificates: readCertificates(dict.DeveloperCertificates),
  };
}
