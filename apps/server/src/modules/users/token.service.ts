/**
 * Owns authentication tokens: session tokens and CI API keys, resolving a presented secret to
 * its user, and revocation. Only SHA-256 hashes of the secrets are stored.
 */

import type { ActorMembership } from "../../http/auth.ts";
import type { IdentityCache } from "../../platform/cache/identity-cache.ts";
import { generateToken, hashToken } from "../../platform/crypto/tokens.ts";
import type { Database } from "../../platform/db/client.ts";
import { isoOrNull, type PersonalDataSection } from "../../platform/personal-data.ts";
import {
  batchedTokenReads,
  hasUnrevokedToken,
  insertToken,
  listSsoSessions,
  listUserTokens,
  markTokenUsed,
  type ReadAlongToken,
  revokeSsoSessions,
  revokeToken,
  revokeUserTokens,
} from "./token.repo.ts";

export const sessionLifetimeMs = 14 * 24 * 3600 * 1000; // the auth cookie lifetime of the spec
const lastUsedResolutionMs = 60_000;

export interface ResolvedToken {
  tokenId: number;
  kind: "session" | "api_key";
  userId: number;
  email: string;
  isActive: boolean;
  twoFactorEnabled: boolean;
  /** The organization whose single sign-on made the token (or the session that made the key). */
  ssoOrganizationId: number | null;
  /** The user's live memberships, when the organization module reads them along. */
  memberships?: readonly ActorMembership[];
}

/** The organization module's memberships of the user, read in the token's statement. */
export interface MembershipsReadAlong extends ReadAlongToken {
  /** The column's value as memberships; undefined when the user has too many to carry along. */
  read: (value: unknown) => readonly ActorMembership[] | undefined;
}

export class TokenService {
  /** Avoids a write per request: last_used_at only moves once a minute per token. */
  private readonly lastTouched = new Map<number, number>();

  /** The tokens requests arriving together present, read in one statement (see BatchedReads). */
  private readonly unrevokedTokens: ReturnType<typeof batchedTokenReads>;

  constructor(
    private readonly deps: { db: Database; identity?: IdentityCache; memberships?: MembershipsReadAlong },
  ) {
    this.unrevokedTokens = batchedTokenReads(deps.db, deps.memberships);
  }

  /** The unrevoked token with its user, and their memberships when they are read along. */
  private async findResolved(tokenHash: string) {
    const row = await this.unrevokedTokens.read(tokenHash);
    if (!row) return null;
    const { along, tokenHash: _hash, ...token } = row;
    return { ...token, memberships: this.deps.memberships?.read(along) };
  }

  async issueSession(
    userId: number,
    now = new Date(),
    db = this.deps.db,
    options: { ssoOrganizationId?: number } = {},
  ): Promise<{ token: string; tokenId: number; expiresAt: Date }> {
    const token = generateToken();
    const expiresAt = new Date(now.getTime() + sessionLifetimeMs);
    const tokenId = await insertToken(db, {
      userId,
      tokenHash: hashToken(token),
      kind: "session",
      expiresAt,
      ssoOrganizationId: options.ssoOrganizationId ?? null,
    });
    return { token, tokenId, expiresAt };
  }

  /**
   * A new API key for CI use: returned once, stored only as its hash, no expiry. A key made in a
   * session that single sign-on made carries that organization too: it can do no more than the
   * session could (no instance administration) and ends with the organization's SSO sessions.
   */
  async issueApiKey(
    userId: number,
    db = this.deps.db,
    ssoOrganizationId: number | null = null,
  ): Promise<string> {
    const token = generateToken();
    await insertToken(db, {
      userId,
      tokenHash: hashToken(token),
      kind: "api_key",
      expiresAt: null,
      ssoOrganizationId,
    });
    return token;
  }

  /** A new API key for the user; every earlier key stops working. */
  async rotateApiKey(userId: number, ssoOrganizationId: number | null = null): Promise<string> {
    return this.deps.db.transaction(async (tx) => {
      await revokeUserTokens(tx, userId, "api_key", new Date());
      return this.issueApiKey(userId, tx, ssoOrganizationId);
    });
  }

  /** Whether a new key would replace one (the profile words its warning by this). */
  hasApiKey(userId: number): Promise<boolean> {
    return hasUnrevokedToken(this.deps.db, userId, "api_key");
  }

  async resolve(token: string, now = new Date()): Promise<ResolvedToken | null> {
    if (token.length < 20 || token.length > 200) return null;
    const tokenHash = hashToken(token);
    const lookup = () => this.findResolved(tokenHash);
    const found = this.deps.identity
      ? await this.deps.identity.get(`token ${tokenHash}`, lookup)
      : await lookup();
    // Expiry is checked here, against this request's time: the read (and a kept answer) holds
    // tokens whatever their expiry.
    if (!found || (found.expiresAt && found.expiresAt.getTime() <= now.getTime())) return null;
    const touched = this.lastTouched.get(found.tokenId) ?? 0;
    if (now.getTime() - touched > lastUsedResolutionMs) {
      this.lastTouched.set(found.tokenId, now.getTime());
      await markTokenUsed(this.deps.db, found.tokenId, now);
    }
    return found;
  }

  async revoke(tokenId: number, now = new Date()): Promise<void> {
    this.lastTouched.delete(tokenId);
    await revokeToken(this.deps.db, tokenId, now);
  }

  /** Signs the user out everywhere, except the session `keepTokenId` (a password change keeps its own). */
  async revokeSessions(userId: number, options: { keepTokenId?: number; db?: Database } = {}): Promise<void> {
    await revokeUserTokens(options.db ?? this.deps.db, userId, "session", new Date(), options.keepTokenId);
  }

  /** Sessions made by an organization's single sign-on that are still live. */
  listSsoSessions(organizationId: number, now = new Date()) {
    return listSsoSessions(this.deps.db, organizationId, now);
  }

  /** Ends a person's sessions made by the organization's single sign-on; returns how many. */
  async revokeSsoSessions(organizationId: number, userId: number): Promise<number> {
    const ids = await revokeSsoSessions(this.deps.db, organizationId, userId, new Date());
    for (const id of ids) this.lastTouched.delete(id);
    return ids.length;
  }

  async revokeApiKeys(userId: number, db = this.deps.db): Promise<void> {
    await revokeUserTokens(db, userId, "api_key", new Date());
  }

  /** Token metadata only: the hashes never leave the database. */
  readonly personalData: PersonalDataSection = {
    name: "tokens",
    load: async (person) =>
      (await listUserTokens(this.deps.db, person.id)).map((row) => ({
        kind: row.kind,
        created_at: row.createdAt.toISOString(),
        last_used_at: isoOrNull(row.lastUsedAt),
        expires_at: isoOrNull(row.expiresAt),
        revoked_at: isoOrNull(row.revokedAt),
      })),
  };
}
