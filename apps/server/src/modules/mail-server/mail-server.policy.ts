import { adminsOnly, type PolicyActor, type Rule } from "../organization/roles.ts";

/** Who may see and change the organization's mail server; written out in docs/permissions.md. */
const rules = {
  "mail-server:read": adminsOnly,
  "mail-server:update": adminsOnly,
} satisfies Record<string, Rule>;

export type MailServerAction = keyof typeof rules;
export const mailServerActions = Object.keys(rules) as MailServerAction[];

export function can(actor: PolicyActor, action: MailServerAction): boolean {
  return rules[action](actor, {});
}
