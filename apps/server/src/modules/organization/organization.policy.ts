import {
  adminsOnly,
  anyMember,
  ownerOnly,
  type PolicyActor,
  type PolicySubject,
  type Rule,
} from "./roles.ts";

/** Who may do what to an organization; the matrix is written out in docs/permissions.md. */
const rules = {
  "organization:read": anyMember,
  "organization:update": adminsOnly,
  "organization:upload-logo": adminsOnly,
  "organization:view-logo": anyMember,
  "organization:view-sdk-key": adminsOnly,
  "organization:rotate-sdk-key": adminsOnly,
  "organization:send-limit-notice": anyMember,
  "organization:read-usage": anyMember,
  "organization:delete": ownerOnly,
  "organization:transfer-owner": ownerOnly,
} satisfies Record<string, Rule>;

export type OrganizationAction = keyof typeof rules;
export const organizationActions = Object.keys(rules) as OrganizationAction[];

export function can(actor: PolicyActor, action: OrganizationAction, subject: PolicySubject = {}): boolean {
  return rules[action](actor, subject);
}
