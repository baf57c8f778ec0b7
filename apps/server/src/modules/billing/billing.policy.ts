import { adminsOnly, ownerOnly, type PolicyActor, type Rule } from "../organization/roles.ts";

/** Who may see and change an organization's billing; written out in docs/permissions.md. */
const rules = {
  /** The subscription, its prices and the invoices. */
  "billing:read": adminsOnly,
  /** The card, the subscription and its cancellation: whoever answers for the organization. */
  "billing:manage": ownerOnly,
} satisfies Record<string, Rule>;

export type BillingAction = keyof typeof rules;
export const billingActions = Object.keys(rules) as BillingAction[];

export function can(actor: PolicyActor, action: BillingAction): boolean {
  return rules[action](actor, {});
}
