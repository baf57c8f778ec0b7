import {
  adminsOnly,
  isAdminRole,
  type PolicyActor,
  type PolicySubject,
  roles,
} from "../organization/roles.ts";

const canSee = (actor: PolicyActor, subject: PolicySubject): boolean => {
  if (isAdminRole(actor.role)) return true;
  if (actor.role === roles.teamManager) return Boolean(subject.isSelf || subject.inTeam);
  return Boolean(subject.isSelf);
};

/** Who may do what to memberships; the matrix is written out in docs/permissions.md. */
const rules = {
  "staff:read": canSee,
  "staff:create": adminsOnly,
  // The owner's membership changes only by owner transfer (see the service for the role rule).
  "staff:update": adminsOnly,
  "staff:remove": (actor: PolicyActor, subject: PolicySubject) =>
    subject.targetRole !== roles.owner && (isAdminRole(actor.role) || Boolean(subject.isSelf)),
  "staff:resend-invitation": adminsOnly,
  "staff:disable-2fa": (actor: PolicyActor, subject: PolicySubject) =>
    actor.role === roles.owner || (actor.role === roles.admin && subject.targetRole !== roles.owner),
  "staff:rotate-api-key": (_actor: PolicyActor, subject: PolicySubject) => Boolean(subject.isSelf),
  // The user directory feeds the add-user and team dialogs.
  "staff:search-directory": (actor: PolicyActor) =>
    isAdminRole(actor.role) || actor.role === roles.teamManager,
};

export type StaffAction = keyof typeof rules;
export const staffActions = Object.keys(rules) as StaffAction[];

export function can(actor: PolicyActor, action: StaffAction, subject: PolicySubject = {}): boolean {
  return rules[action](actor, subject);
}
