import type { DistributionInstance } from "@tarmac/contracts";

/**
 * Whether iPhones and iPads can install from this instance. iOS reads the `itms-services`
 * manifest and the IPA only from https:// addresses, and every address handed out is built from
 * PUBLIC_URL, so that setting decides it.
 */
export function iosInstallSupport(publicUrl: string): DistributionInstance {
  if (publicUrl.startsWith("https://")) return { ios_installs: true, reason: null };
  return {
    ios_installs: false,
    reason:
      `This instance is reached at ${publicUrl}, not over HTTPS: iOS installs apps over the air ` +
      "only from https:// addresses. Serve it over HTTPS and set PUBLIC_URL to that address.",
  };
}
