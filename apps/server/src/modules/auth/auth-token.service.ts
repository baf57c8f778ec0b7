/**
 * Owns authentication tokens: issuing session tokens and API keys, resolving a presented
 * secret to its user, and revocation. Only SHA-256 hashes of the secrets are stored.
 */

import { generateToken, hashToken } from "../../platform/crypto/tokens.ts";
import type { Database } from "../../platform/db/client.ts";
import { findLiveToken, insertToken, markTokenUsed, revokeToken } from "./auth-token.repo.ts";

export const sessionLifetimeMs = 14 * 24 * 3600 * 1000; // the auth cookie lifetime of the spec
const lastUsedResolutionMs = 60_000;

export interface ResolvedToken {
  tokenId: number;
  kind: "session" | "api_key";
  userId: number;
  email: string;
  isActive: boolean;
}

export class AuthTokenService {
  /** Avoids a write per request: last_used_at only moves once a minute per token. */
  private readonly lastTouched = new Map<number, number>();

  constructor(private readonly db: Database) {}

  async issueSession(
    userId: number,
    now = new Date(),
  ): Promise<{ token: string; tokenId: number; expiresAt: Date }> {
    const token = generateToken();
    const expiresAt = new Date(now.getTime() + sessionLifetimeMs);
    const tokenId = await insertToken(this.db, {
      userId,
      tokenHash: hashToken(token),
      kind: "session",
      expiresAt,
    });
    return { token, tokenId, expiresAt };
  }

  async resolve(token: string, now = new Date()): Promise<ResolvedToken | null> {
    if (token.length < 20 || token.length > 200) return null;
    const found = await findLiveToken(this.db, hashToken(token), now);
    if (!found) return null;
    const touched = this.lastTouched.get(found.tokenId) ?? 0;
    if (now.getTime() - touched > lastUsedResolutionMs) {
      this.lastTouched.set(found.tokenId, now.getTime());
      await markTokenUsed(this.db, found.tokenId, now);
    }
    return found;
  }

  async revoke(tokenId: number, now = new Date()): Promise<void> {
    this.lastTouched.delete(tokenId);
    await revokeToken(this.db, tokenId, now);
  }
}
