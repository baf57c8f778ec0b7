// Plan checks of spec §5 and §9: the storage warning, critical limits and the user limit.
import type { OrgData } from "./account.ts";
import { ROLE_OWNER } from "./roles.ts";

export const STORAGE_WARNING_RATIO = 0.75;

/** Owners are warned once more than three quarters of a non-zero storage limit is used. */
export function isStorageWarning(org: Pick<OrgData, "role" | "space_used" | "space_limit">): boolean {
  if (org.role !== ROLE_OWNER || !org.space_limit) return false;
  return org.space_used / org.space_limit > STORAGE_WARNING_RATIO;
}

/** A limit is critical when it exists and has been reached, for storage or builds. */
export function isPlanCritical(
  org: Pick<OrgData, "space_used" | "space_limit" | "builds_count" | "build_limit">,
): boolean {
  const spaceFull = org.space_limit > 0 && org.space_used >= org.space_limit;
  const buildsFull = org.build_limit > 0 && org.builds_count >= org.build_limit;
  return spaceFull || buildsFull;
}

/** At the limit when a limit exists (non-zero) and the count has reached it (spec §5). */
export function isUserLimitReached(usersCount: number, userLimit: number): boolean {
  return userLimit > 0 && usersCount >= userLimit;
}
