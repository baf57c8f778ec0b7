import { adminsOnly, type PolicyActor, type Rule } from "../organization/roles.ts";

/**
 * Who may do what with store publishing; written out in docs/permissions.md. Developer keys act
 * for the whole organization in the stores, so they and publishing belong to owners and admins;
 * anyone who sees an app sees its store upload history.
 */
const rules = {
  "store-account:read": adminsOnly,
  "store-account:manage": adminsOnly,
  "store-upload:start": adminsOnly,
  "store-upload:read": () => true,
} satisfies Record<string, Rule>;

export type StoreAction = keyof typeof rules;
export const storeActions = Object.keys(rules) as StoreAction[];

export function can(actor: PolicyActor, action: StoreAction): boolean {
  return rules[action](actor, {});
}
