// Organization roles (spec §6) and what each may do in these screens.
export const ROLE_OWNER = 1;
export const ROLE_ADMIN = 2;
export const ROLE_MOBILE_USER = 3;
export const ROLE_TEAM_MANAGER = 4;
export const ROLE_TESTER = 5;

/** The roles the add-user dialog offers, in this order (spec §3). */
export const ADD_USER_ROLES = [ROLE_ADMIN, ROLE_MOBILE_USER, ROLE_TESTER] as const;
/** Roles a member can be given by editing; ownership only moves by transfer. */
export const EDITABLE_ROLES = [ROLE_ADMIN, ROLE_MOBILE_USER, ROLE_TEAM_MANAGER, ROLE_TESTER] as const;

export function isAdminRole(role: number | undefined): boolean {
  return role === ROLE_OWNER || role === ROLE_ADMIN;
}

export function canManageTeams(role: number | undefined): boolean {
  return isAdminRole(role) || role === ROLE_TEAM_MANAGER;
}

export function canSeeStaff(role: number | undefined): boolean {
  return canManageTeams(role);
}

export function roleKey(role: number): string {
  return `roles.r${role}`;
}

export const ROLE_COLORS: Record<number, string> = {
  1: "grape",
  2: "blue",
  3: "teal",
  4: "orange",
  5: "gray",
};

/** At the limit when a limit exists (non-zero) and the count has reached it (spec §5). */
export function isUserLimitReached(usersCount: number, userLimit: number): boolean {
  return userLimit > 0 && usersCount >= userLimit;
}
