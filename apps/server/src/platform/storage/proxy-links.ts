import { qualifiedKey } from "./location-keys.ts";
import type { UrlSigner } from "./signed-url.ts";
import { assertValidKey, type SignedUrlOptions } from "./storage-driver.ts";

/**
 * Links to `/api/files/…`, where the server streams an object itself (with Range) instead of
 * sending the client to the storage: the local disk always, buckets the clients cannot reach
 * (`STORAGE_PROXY_DOWNLOADS=true`). `location` names an organization's storage location (null:
 * the instance's storage): its links carry the location-qualified key (`loc/{id}/…`, see
 * routed-storage.ts), which the signature covers, so a link cannot be pointed elsewhere.
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
    const served = this.location === null ? key : qualifiedKey(this.location, key);
    query.set("signature", this.signer.sign(served, expires, fileName, contentType));
    return `${this.publicUrl}/api/files/${served}?${query.toString()}`;
  }
}
