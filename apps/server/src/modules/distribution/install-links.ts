import type { UrlSigner } from "../../platform/storage/signed-url.ts";

/** The stored files a link hands out: the build itself, or the universal APK made from an AAB. */
export type LinkFileKind = "file" | "universal-apk";

const now = () => Math.floor(Date.now() / 1000);

/** The public install page of a link (a web route). */
export function installPageUrl(publicUrl: string, key: string): string {
  return `${publicUrl}/getapp/${key}`;
}

/**
 * Signed URLs of a link: the manifest iOS reads and the files installers fetch. Devices send no
 * cookie, so the signature (bound to the link, the version and the file) is the permission.
 */
export class InstallLinkSigner {
  private readonly signer: UrlSigner;
  private readonly publicUrl: string;
  private readonly ttlSeconds: number;

  constructor(deps: { signer: UrlSigner; publicUrl: string; ttlSeconds: number }) {
    this.signer = deps.signer;
    this.publicUrl = deps.publicUrl;
    this.ttlSeconds = deps.ttlSeconds;
  }

  manifestUrl(link: { id: number; key: string }, versionId: number): string {
    const expires = now() + this.ttlSeconds;
    const signature = this.signer.sign(`getapp-manifest/${link.id}/${versionId}`, expires);
    return `${this.publicUrl}/api/getapp/${link.key}/manifest.plist?version=${versionId}&expires=${expires}&signature=${signature}`;
  }

  verifyManifest(linkId: number, versionId: number, expires: number, signature: string): boolean {
    return this.signer.verify(`getapp-manifest/${linkId}/${versionId}`, expires, "", "", signature);
  }

  fileUrl(link: { id: number; key: string }, versionId: number, kind: LinkFileKind): string {
    const expires = now() + this.ttlSeconds;
    const signature = this.signer.sign(`getapp-file/${link.id}/${versionId}/${kind}`, expires);
    return `${this.publicUrl}/api/getapp/${link.key}/file/${versionId}/${kind}/?expires=${expires}&signature=${signature}`;
  }

  verifyFile(linkId: number, versionId: number, kind: LinkFileKind, expires: number, signature: string) {
    return this.signer.verify(`getapp-file/${linkId}/${versionId}/${kind}`, expires, "", "", signature);
  }

  /**
   * What unlocking a password link returns. It covers the password hash too, so changing the
   * password ends every access handed out before.
   */
  accessToken(link: { id: number; passwordHash: string | null }, ttlSeconds: number): string {
    const expires = now() + ttlSeconds;
    return `${expires}.${this.signer.sign(accessSubject(link), expires)}`;
  }

  verifyAccessToken(link: { id: number; passwordHash: string | null }, token: string): boolean {
    const [expires, signature, extra] = token.split(".");
    if (!expires || !signature || extra !== undefined || !/^\d{1,12}$/.test(expires)) return false;
    return this.signer.verify(accessSubject(link), Number(expires), "", "", signature);
  }
}

function accessSubject(link: { id: number; passwordHash: string | null }): string {
  return `getapp-access/${link.id}/${link.passwordHash ?? ""}`;
}
