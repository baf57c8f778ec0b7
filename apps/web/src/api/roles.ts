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
