import {
  adminsOnly,
  anyMember,
  isAdminRole,
  type PolicyActor,
  type PolicySubject,
  roles,
} from "../organization/roles.ts";

/** Who may do what to teams; the matrix is written out in docs/permissions.md. */
const rules = {
  "team:read": anyMember,
  "team:create": adminsOnly,
  // Team managers look after the members of their own teams, nothing more.
  "team:update-members": (actor: PolicyActor, subject: PolicySubject) =>
    isAdminRole(actor.role) || (actor.role === roles.teamManager && Boolean(subject.inTeam)),
  "team:rename": adminsOnly,
  "team:delete": adminsOnly,
};

export type TeamAction = keyof typeof rules;
export const teamActions = Object.keys(rules) as TeamAction[];

export function can(actor: PolicyActor, action: TeamAction, subject: PolicySubject = {}): boolean {
  return rules[action](actor, subject);
}
