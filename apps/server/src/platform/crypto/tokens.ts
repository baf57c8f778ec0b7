import { createHash, randomBytes } from "node:crypto";

/** A new random secret for a session token or API key (256 bits, URL-safe). */
export function generateToken(): string {
  return randomBytes(32).toString("base64url");
}

/**
 * Tokens are random and long, so a fast hash is enough to make a stolen table useless;
 * passwords, which are guessable, use argon2id instead.
 */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}
