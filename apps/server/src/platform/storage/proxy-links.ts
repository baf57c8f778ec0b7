import type { UrlSigner } from "./signed-url.ts";
import { assertValidKey, type SignedUrlOptions } from "./storage-driver.ts";

/**
 * Links to `/api/files/…`, where the server streams an object itself (with Range) instead of
 * sending the client to the storage: the local disk always, buckets the clients cannot reach
 * (`STORAGE_PROXY_DOWNLOADS=true`). `location` names an organization's storage location (null:
 * the instance's storage); it is signed with the rest, so a link cannot be pointed elsewhere.
 */
export class ProxyLinks {
  constructor(
    private readonly signer: UrlSigner,
    private readonly publicUrl: string,
    readonly location: number | null,
  ) {}

  url(key: string, options: SignedUrlOptions): string {
    assertValidKey(key);
    const expires = Math.floor(Date.now() / 1000) + options.expiresInSeconds;
    const fileName = options.fileName ?? "";
    const contentType = options.contentType ?? "";
    const query = new URLSearchParams({ expires: String(expires) });
    if (fileName) query.set("name", fileName);
    if (contentType) query.set("type", contentType);
    if (this.location !== null) query.set("loc", String(this.location));
    query.set("signature", this.signer.sign(this.signedKey(key), expires, fileName, contentType));
    return `${this.publicUrl}/api/files/${key}?${query.toString()}`;
  }

  /** What the signature covers for a key: the location too, when there is one. */
  signedKey(key: string): string {
    return this.location === null ? key : `${this.location}:${key}`;
  }
}
