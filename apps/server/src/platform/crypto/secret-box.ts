import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

const version = "v1";

/**
 * AES-256-GCM for organization secrets at rest (SMTP passwords, storage keys, SSO keys).
 * The key is derived from SECRET_KEY per purpose, so one leaked purpose key opens nothing else.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(secretKey: string, purpose = "secrets-at-rest") {
    this.key = Buffer.from(hkdfSync("sha256", secretKey, "tarmac", purpose, 32));
  }

  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
    return [
      version,
      iv.toString("base64url"),
      cipher.getAuthTag().toString("base64url"),
      body.toString("base64url"),
    ].join(".");
  }

  open(sealed: string): string {
    const [tag, iv, authTag, body] = sealed.split(".");
    if (tag !== version || !iv || !authTag || body === undefined) throw new Error("not a sealed secret");
    const decipher = createDecipheriv("aes-256-gcm", this.key, Buffer.from(iv, "base64url"));
    decipher.setAuthTag(Buffer.from(authTag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString(
      "utf8",
    );
  }
}
