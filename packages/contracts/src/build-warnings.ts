import { z } from "zod";

/**
 * Why phones will refuse a build that was uploaded fine: `ipa_unsigned` (no provisioning
 * profile), `ipa_app_store` (an App Store profile installs only through the App Store or
 * TestFlight), `ipa_profile_expired`.
 */
export const buildWarningCode = z.enum(["ipa_unsigned", "ipa_app_store", "ipa_profile_expired"]);
export type BuildWarningCode = z.infer<typeof buildWarningCode>;

export const buildWarning = z.object({ code: buildWarningCode, message: z.string() });
export type BuildWarning = z.infer<typeof buildWarning>;

const messages: Record<BuildWarningCode, string> = {
  ipa_unsigned:
    "This IPA has no provisioning profile (embedded.mobileprovision): iPhones and iPads will refuse to install it. Sign it with an ad-hoc, development or enterprise profile.",
  ipa_app_store:
    "This IPA is signed for the App Store: iPhones and iPads install it only from the App Store or TestFlight, not from a link. Export it with an ad-hoc, development or enterprise profile.",
  ipa_profile_expired:
    "The provisioning profile of this IPA has expired: iPhones and iPads will refuse to install it. Sign it again with a valid profile.",
};

function warning(code: BuildWarningCode): BuildWarning {
  return { code, message: messages[code] };
}

/** What the inspector's reading of a build says about installing it from a link. */
export function installWarnings(buildInfo: Record<string, unknown>): BuildWarning[] {
  if (buildInfo.file_type !== "ipa") return [];
  const profile = buildInfo.provisioning;
  if (typeof profile !== "object" || profile === null) return [warning("ipa_unsigned")];
  const { kind, expired } = profile as { kind?: unknown; expired?: unknown };
  if (kind === "app_store") return [warning("ipa_app_store")];
  return expired === true ? [warning("ipa_profile_expired")] : [];
}
