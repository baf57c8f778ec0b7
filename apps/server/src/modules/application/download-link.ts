import type { UrlSigner } from "../../platform/storage/signed-url.ts";

/** The stored files of a version that can be downloaded. */
export const fileKinds = ["file", "universal-apk"] as const;
export type FileKind = (typeof fileKinds)[number];

const day = 24 * 3600;

// The signature covers the version and the kind only: name and type are read from the row
// when the file is served, so a file exchange keeps links handed out earlier working.
function signedSubject(versionId: number, kind: FileKind): string {
  return `version-download/${versionId}/${kind}`;
}

/** A cookie-free link to the build, counted by the download route. */
export function downloadLink(
  signer: UrlSigner,
  publicUrl: string,
  versionId: number,
  kind: FileKind,
  expiresInSeconds: number,
): string {
  const expires = Math.floor(Date.now() / 1000) + expiresInSeconds;
  const signature = signer.sign(signedSubject(versionId, kind), expires);
  return `${publicUrl}/api/dl/${versionId}/${kind}/?expires=${expires}&signature=${signature}`;
}

export function verifyDownloadLink(
  signer: UrlSigner,
  versionId: number,
  kind: FileKind,
  expires: number,
  signature: string,
): boolean {
  return signer.verify(signedSubject(versionId, kind), expires, "", "", signature);
}

/**
 * Seconds until the end of tomorrow (UTC). Icons are signed up to that fixed moment, so the
 * same icon keeps the same URL all day and browsers can cache it.
 */
export function stableIconTtl(nowMs = Date.now()): number {
  const now = Math.floor(nowMs / 1000);
  return (Math.floor(now / day) + 2) * day - now;
}
