import { adminsOnly, type PolicyActor, type Rule } from "../organization/roles.ts";

/** Who may see and change where an organization's files live; written out in docs/permissions.md. */
const rules = {
  "storage:read": adminsOnly,
  "storage:update": adminsOnly,
  "storage:move": adminsOnly,
} satisfies Record<string, Rule>;

export type StorageAction = keyof typeof rules;
export const storageActions = Object.keys(rules) as StorageAction[];

export function can(actor: PolicyActor, action: StorageAction): boolean {
  return rules[action](actor, {});
}
