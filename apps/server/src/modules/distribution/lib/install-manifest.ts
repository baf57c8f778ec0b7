import plist from "plist";

export interface InstallManifestInput {
  /** HTTPS URL the device downloads the .ipa from; it sends no cookies, so a signed URL. */
  ipaUrl: string;
  bundleId: string;
  bundleVersion: string;
  title: string;
  /** Shown by iOS while installing; optional. */
  iconUrl?: string | null;
}

/**
 * The manifest.plist iOS reads for an itms-services install. Built through `plist`, which
 * XML-escapes every value: signed URLs carry `&` and titles are user text.
 */
export function buildInstallManifest(input: InstallManifestInput): string {
  const assets: Array<{ kind: string; url: string }> = [{ kind: "software-package", url: input.ipaUrl }];
  if (input.iconUrl) {
    assets.push(
      { kind: "display-image", url: input.iconUrl },
      { kind: "full-size-image", url: input.iconUrl },
    );
  }
  return plist.build({
    items: [
      {
        assets,
        metadata: {
          "bundle-identifier": input.bundleId,
          "bundle-version": input.bundleVersion,
          kind: "software",
          title: input.title,
        },
      },
    ],
  });
}

/** The link an iPhone or iPad opens to start the install; the manifest URL must be HTTPS. */
export function itmsServicesLink(manifestUrl: string): string {
  return `itms-services://?action=download-manifest&url=${encodeURIComponent(manifestUrl)}`;
}
