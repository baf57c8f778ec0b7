/**
 * The tenant boundary: every organization-scoped endpoint asks this service for the caller's
 * membership first. No membership (or an organization being deleted) reads as "not found",
 * so another organization's objects never reveal that they exist.
 */
import { AppError } from "../../http/errors.ts";
import type { Database } from "../../platform/db/client.ts";
import { findLiveMembership, listLiveMemberships } from "./membership.repo.ts";
import { findOrganizationById, lockOrganization } from "./organization.repo.ts";

export interface MemberContext {
  membershipId: number;
  organizationId: number;
  userId: number;
  role: number;
  /** The organization's catalog version as of this read (validates cached list pages). */
  catalogVersion: number;
}

export class MembershipService {
  constructor(private readonly db: Database) {}

  async findMembership(userId: number, organizationId: number, db = this.db): Promise<MemberContext | null> {
    return findLiveMembership(db, userId, organizationId);
  }

  /** The caller's membership in the organization; 404 when there is none. */
  async getMembership(userId: number, organizationId: number, db = this.db): Promise<MemberContext> {
    const found = await findLiveMembership(db, userId, organizationId);
    if (!found) throw AppError.notFound();
    return found;
  }

  async listMemberships(userId: number): Promise<MemberContext[]> {
    return listLiveMemberships(this.db, userId);
  }

  /**
   * Locks the organization row for the rest of `tx` (SELECT ... FOR UPDATE), so changes that
   * count members, like taking the last seat of the plan, happen one at a time. 404 if gone.
   */
  async lockOrganization(organizationId: number, tx: Database): Promise<void> {
    if (!(await lockOrganization(tx, organizationId))) throw AppError.notFound();
  }

  async getOrganizationTitle(organizationId: number, db = this.db): Promise<string> {
    return (await findOrganizationById(db, organizationId))?.title ?? "";
  }
}
