// Plan checks of spec §5 and §9, shared by the side menu and the plan page.
import type { OrgData } from "../../api/account.ts";
import { ROLE_OWNER } from "../organization/roles.ts";

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

/** Share of a limit in percent for progress bars; 0 for unlimited. */
export function toPercent(used: number, limit: number): number {
  if (!limit) return 0;
  return Math.min(100, Math.round((used / limit) * 100));
}
