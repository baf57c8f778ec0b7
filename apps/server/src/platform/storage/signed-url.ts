import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";

/**
 * HMAC-signed download URLs for drivers that serve files through the app (local disk).
 * The signature covers the key, the expiry and the presentation parameters, so none can be changed.
 */
export class UrlSigner {
  private readonly key: Buffer;

  constructor(secretKey: string) {
    this.key = Buffer.from(hkdfSync("sha256", secretKey, "tarmac", "storage-signed-url", 32));
  }

  private signature(parts: string[]): string {
    return createHmac("sha256", this.key).update(parts.join("\n")).digest("base64url");
  }

  sign(key: string, expiresAt: number, fileName = "", contentType = ""): string {
    return this.signature([key, String(expiresAt), fileName, contentType]);
  }

  verify(
    key: string,
    expiresAt: number,
    fileName: string,
    contentType: string,
    signature: string,
    now = Date.now(),
  ) {
    if (!Number.isSafeInteger(expiresAt) || expiresAt * 1000 < now) return false;
    const expected = Buffer.from(this.sign(key, expiresAt, fileName, contentType));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}
