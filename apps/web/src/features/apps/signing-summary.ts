// A build's one-line signing summary from the inspector's reading.
import type { TFunction } from "i18next";
import type { Version } from "../../api/applications.ts";

// The contract leaves `metadata` an open record (its keys depend on the build's format), so the
// parts read here are optional and checked before use.
interface SigningReading {
  signed?: boolean;
  schemes?: string[];
}

interface ProvisioningReading {
  kind?: string;
  expired?: boolean;
  expires?: string;
  devices?: string[];
  provisions_all_devices?: boolean;
}

function asObject<T>(value: unknown): T | null {
  return typeof value === "object" && value !== null ? (value as T) : null;
}

/** "Signed (v2, v3)", and for Apple builds the profile kind, expiry and device count. */
export function signingSummary(version: Version, t: TFunction, language: string): string {
  const parts: string[] = [];
  const signing = asObject<SigningReading>(version.metadata.signing);
  if (signing) {
    const schemes = (signing.schemes ?? []).join(", ");
    parts.push(signing.signed ? t("apps.signed", { schemes: schemes || "—" }) : t("apps.unsigned"));
  }
  const profile = asObject<ProvisioningReading>(version.metadata.provisioning);
  if (profile?.kind) {
    parts.push(t(`apps.profile_kinds.${profile.kind}`, { defaultValue: profile.kind }));
    if (profile.expired) parts.push(t("apps.profile_expired"));
    else if (profile.expires) {
      const expires = new Date(profile.expires);
      if (!Number.isNaN(expires.getTime())) {
        const day = new Intl.DateTimeFormat(language, { dateStyle: "medium" }).format(expires);
        parts.push(t("apps.profile_expires", { date: day }));
      }
    }
    if (profile.provisions_all_devices) parts.push(t("apps.all_devices"));
    else if (profile.devices) parts.push(t("apps.devices", { count: profile.devices.length }));
  }
  return parts.length > 0 ? parts.join(" · ") : "—";
}
