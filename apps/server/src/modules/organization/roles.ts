/** Organization roles as stored in memberships.role and sent over the API. */
export const roles = { owner: 1, admin: 2, mobileUser: 3, teamManager: 4, tester: 5 } as const;
export type RoleId = (typeof roles)[keyof typeof roles];
export const allRoles: RoleId[] = [1, 2, 3, 4, 5];

/** Owners are administrators too: every admin right is theirs. */
export function isAdminRole(role: number): boolean {
  return role === roles.owner || role === roles.admin;
}

/** The acting member as policies see it. */
export interface PolicyActor {
  role: number;
}

/**
 * What a rule may need to know about the object besides the actor's role. Callers fill in the
 * facts that apply; a missing fact counts as false.
 */
export interface PolicySubject {
  /** The object is the actor's own membership. */
  isSelf?: boolean;
  /** Staff: the member shares a team with the actor. Teams: the actor belongs to the team. */
  inTeam?: boolean;
  /** Staff: the role of the member acted upon. */
  targetRole?: number;
}

export type Rule = (actor: PolicyActor, subject: PolicySubject) => boolean;

export const anyMember: Rule = () => true;
export const adminsOnly: Rule = (actor) => isAdminRole(actor.role);
export const ownerOnly: Rule = (actor) => actor.role === roles.owner;
