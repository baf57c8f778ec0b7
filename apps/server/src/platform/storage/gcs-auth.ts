import { createHash, createSign } from "node:crypto";
import { encodeStrictly } from "./content-disposition.ts";
import type { GcsServiceAccount } from "./storage-settings.ts";

const defaultTokenUri = "https://oauth2.googleapis.com/token";
const scope = "https://www.googleapis.com/auth/devstorage.read_write";

const base64url = (value: string | Buffer) => Buffer.from(value).toString("base64url");

/**
 * OAuth access tokens for a service account (the JWT-bearer grant of RFC 7523, as Google
 * documents it): a JWT signed with the account's key is exchanged at the key file's token_uri.
 * A token is reused until a minute before it expires.
 */
export class GcsTokens {
  private cached: { token: string; expiresAt: number } | null = null;
  private pending: Promise<string> | null = null;

  constructor(private readonly account: GcsServiceAccount) {}

  async token(): Promise<string> {
    if (this.cached && this.cached.expiresAt - 60_000 > Date.now()) return this.cached.token;
    this.pending ??= this.fetchToken().finally(() => {
      this.pending = null;
    });
    return this.pending;
  }

  private async fetchToken(): Promise<string> {
    const tokenUri = this.account.token_uri ?? defaultTokenUri;
    const now = Math.floor(Date.now() / 1000);
    const header = {
      alg: "RS256",
      typ: "JWT",
      ...(this.account.private_key_id ? { kid: this.account.private_key_id } : {}),
    };
    const claims = { iss: this.account.client_email, scope, aud: tokenUri, iat: now, exp: now + 3600 };
    const unsigned = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(claims))}`;
    const signature = createSign("RSA-SHA256").update(unsigned).sign(this.account.private_key);
    const response = await fetch(tokenUri, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
        assertion: `${unsigned}.${base64url(signature)}`,
      }),
      signal: AbortSignal.timeout(15_000),
    });
    const body = (await response.json().catch(() => ({}))) as {
      access_token?: string;
      expires_in?: number;
      error?: string;
      error_description?: string;
    };
    if (!response.ok || !body.access_token) {
      const error = new Error(
        `Google refused the service account key: ${body.error ?? response.status} ${body.error_description ?? ""}`.trim(),
      ) as Error & { code: number };
      error.code = 401;
      throw error;
    }
    this.cached = { token: body.access_token, expiresAt: Date.now() + (body.expires_in ?? 3600) * 1000 };
    return body.access_token;
  }
}

/**
 * A V4 signed GET URL (GOOG4-RSA-SHA256), computed locally with the service account's key, as
 * Google's "Signed URL process" documents it. `host` and `pathPrefix` come from the API endpoint.
 */
export function signGcsUrl(
  account: GcsServiceAccount,
  target: {
    origin: string;
    bucket: string;
    name: string;
    expiresInSeconds: number;
    query: Record<string, string>;
  },
  now = new Date(),
): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");
  const date = stamp.slice(0, 8);
  const credentialScope = `${date}/auto/storage/goog4_request`;
  const url = new URL(target.origin);
  const path = `/${target.bucket}/${target.name.split("/").map(encodeStrictly).join("/")}`;
  const query: Record<string, string> = {
    ...target.query,
    "X-Goog-Algorithm": "GOOG4-RSA-SHA256",
    "X-Goog-Credential": `${account.client_email}/${credentialScope}`,
    "X-Goog-Date": stamp,
    "X-Goog-Expires": String(Math.min(target.expiresInSeconds, 7 * 24 * 3600)),
    "X-Goog-SignedHeaders": "host",
  };
  const canonicalQuery = Object.keys(query)
    .sort()
    .map((key) => `${encodeStrictly(key)}=${encodeStrictly(query[key] as string)}`)
    .join("&");
  const canonicalRequest = [
    "GET",
    path,
    canonicalQuery,
    `host:${url.host}\n`,
    "host",
    "UNSIGNED-PAYLOAD",
  ].join("\n");
  const stringToSign = [
    "GOOG4-RSA-SHA256",
    stamp,
    credentialScope,
    createHash("sha256").update(canonicalRequest).digest("hex"),
  ].join("\n");
  const signature = createSign("RSA-SHA256").update(stringToSign).sign(account.private_key, "hex");
  return `${url.origin}${path}?${canonicalQuery}&X-Goog-Signature=${signature}`;
}
