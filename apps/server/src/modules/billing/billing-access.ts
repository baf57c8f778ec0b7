import type { OrganizationSelector } from "@tarmac/contracts";
import { AppError } from "../../http/errors.ts";
import type { Caller, MembershipService } from "../organization/membership.service.ts";
import { type BillingAction, can } from "./billing.policy.ts";

/**
 * The organization a billing request acts on, once the caller may: another organization's
 * billing answers 404 like everything of it, a member without the right 403.
 */
export class BillingAccess {
  constructor(private readonly membership: MembershipService) {}

  async organizationOf(
    caller: Caller,
    selector: OrganizationSelector,
    action: BillingAction,
  ): Promise<number> {
    const member = await this.membership.resolveMembership(caller, selector);
    if (!can(member, action)) throw AppError.forbidden();
    return member.organizationId;
  }
}
