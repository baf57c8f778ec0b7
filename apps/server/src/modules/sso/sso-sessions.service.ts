import type { SsoSession } from "@tarmac/contracts";
import { AppError } from "../../http/errors.ts";
import type { MembershipService } from "../organization/membership.service.ts";
import type { TokenService } from "../users/token.service.ts";
import { can } from "./sso.policy.ts";

/**
 * Sessions the organization's single sign-on made. Someone removed at the identity provider can
 * no longer sign in; an admin ends what they still hold.
 */
export class SsoSessionsService {
  constructor(private readonly deps: { membership: MembershipService; tokens: TokenService }) {}

  private async authorize(actorUserId: number, organizationId: number) {
    const member = await this.deps.membership.getMembership(actorUserId, organizationId);
    if (!can(member, "sso:update")) throw AppError.forbidden();
  }

  /** One row per person: how many sessions, the newest, the last use. */
  async list(actorUserId: number, organizationId: number): Promise<SsoSession[]> {
    await this.authorize(actorUserId, organizationId);
    const byPerson = new Map<number, SsoSession>();
    for (const row of await this.deps.tokens.listSsoSessions(organizationId)) {
      const seen = byPerson.get(row.userId);
      const lastUsed = row.lastUsedAt?.toISOString() ?? null;
      if (seen) {
        seen.sessions += 1;
        if (lastUsed && (!seen.last_used_at || lastUsed > seen.last_used_at)) seen.last_used_at = lastUsed;
        continue;
      }
      byPerson.set(row.userId, {
        user: { id: row.userId, email: row.email, first_name: row.firstName, last_name: row.lastName },
        sessions: 1,
        signed_in_at: row.createdAt.toISOString(),
        last_used_at: lastUsed,
      });
    }
    return [...byPerson.values()];
  }

  async revoke(actorUserId: number, organizationId: number, userId: number): Promise<{ revoked: number }> {
    await this.authorize(actorUserId, organizationId);
    return { revoked: await this.deps.tokens.revokeSsoSessions(organizationId, userId) };
  }
}
