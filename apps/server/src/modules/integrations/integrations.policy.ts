import { adminsOnly, type PolicyActor, type Rule } from "../organization/roles.ts";

/**
 * Who may see and change webhooks and chat channels; written out in docs/permissions.md. They
 * send the organization's data to outside addresses and carry secrets, so admins only.
 */
const rules = {
  "webhook:read": adminsOnly,
  "webhook:manage": adminsOnly,
} satisfies Record<string, Rule>;

export type IntegrationAction = keyof typeof rules;
export const integrationActions = Object.keys(rules) as IntegrationAction[];

export function can(actor: PolicyActor, action: IntegrationAction): boolean {
  return rules[action](actor, {});
}
