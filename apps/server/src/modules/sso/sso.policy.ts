import { adminsOnly, type PolicyActor, type Rule } from "../organization/roles.ts";

/** Who may see and change single sign-on; written out in docs/permissions.md. */
const rules = {
  "sso:read": adminsOnly,
  "sso:update": adminsOnly,
} satisfies Record<string, Rule>;

export type SsoAction = keyof typeof rules;
export const ssoActions = Object.keys(rules) as SsoAction[];

export function can(actor: PolicyActor, action: SsoAction): boolean {
  return rules[action](actor, {});
}
