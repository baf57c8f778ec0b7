/**
 * Owns invitations (the `organization_invitations` table): places offered to people who have not
 * accepted them. An invitation gives its organization nothing over the person — no access, no
 * listing, no sign-in rules — until the person accepts; who may offer and what happens on
 * acceptance (teams, projects) is the staff module's.
 */
import type { Database } from "../../platform/db/client.ts";
import { isUniqueViolation } from "../../platform/db/db-errors.ts";
import {
  countLiveInvitations,
  deleteExpiredInvitations,
  deleteInvitation,
  findInvitationAmong,
  findInvitationOfUser,
  findLiveInvitation,
  type InvitationRow,
  insertInvitation,
  listLiveInvitationsOfOrganization,
  listLiveInvitationsOfUser,
  type NewInvitation,
  takeInvitation,
} from "./invitation.repo.ts";

export type { InvitationRow } from "./invitation.repo.ts";

/** As long as the invitation link mailed with it. */
export const invitationLifetimeMs = 14 * 24 * 3600 * 1000;

export class AlreadyInvitedError extends Error {}

export class InvitationService {
  constructor(private readonly deps: { db: Database }) {}

  /** A new invitation (an expired one of the same person is replaced); AlreadyInvitedError if live. */
  async offer(
    input: Omit<NewInvitation, "expiresAt">,
    tx: Database,
    now = new Date(),
  ): Promise<InvitationRow> {
    if (await findLiveInvitation(tx, input.organizationId, input.userId, now))
      throw new AlreadyInvitedError();
    await takeInvitation(tx, input.organizationId, input.userId);
    try {
      return await insertInvitation(tx, {
        ...input,
        expiresAt: new Date(now.getTime() + invitationLifetimeMs),
      });
    } catch (error) {
      if (isUniqueViolation(error, "organization_invitations_org_user_key")) throw new AlreadyInvitedError();
      throw error;
    }
  }

  findLive(organizationId: number, userId: number, db = this.deps.db, now = new Date()) {
    return findLiveInvitation(db, organizationId, userId, now);
  }

  /** A live invitation by id among the given organizations (the caller's). */
  async findAmong(organizationIds: number[], id: number, now = new Date()): Promise<InvitationRow | null> {
    const row = await findInvitationAmong(this.deps.db, organizationIds, id);
    return row && row.expiresAt.getTime() > now.getTime() ? row : null;
  }

  /** A live invitation by id, only if it is addressed to this person. */
  async findOfUser(userId: number, id: number, now = new Date()): Promise<InvitationRow | null> {
    const row = await findInvitationOfUser(this.deps.db, userId, id);
    return row && row.expiresAt.getTime() > now.getTime() ? row : null;
  }

  /** Removes the person's invitation and returns it when it was still live (accepting it). */
  async take(organizationId: number, userId: number, tx: Database, now = new Date()) {
    const row = await takeInvitation(tx, organizationId, userId);
    return row && row.expiresAt.getTime() > now.getTime() ? row : null;
  }

  cancel(organizationId: number, id: number, db = this.deps.db): Promise<boolean> {
    return deleteInvitation(db, organizationId, id);
  }

  listForOrganization(organizationId: number, now = new Date()): Promise<InvitationRow[]> {
    return listLiveInvitationsOfOrganization(this.deps.db, organizationId, now);
  }

  /** The person's live invitations to organizations that are not being deleted. */
  async listForUser(userId: number, db = this.deps.db, now = new Date()) {
    const rows = await listLiveInvitationsOfUser(db, userId, now);
    return rows.filter((row) => row.deletingAt === null);
  }

  countLive(organizationIds: number[], db = this.deps.db, now = new Date()): Promise<Map<number, number>> {
    return countLiveInvitations(db, [...new Set(organizationIds)], now);
  }

  deleteExpired(now = new Date()): Promise<void> {
    return deleteExpiredInvitations(this.deps.db, now);
  }
}
