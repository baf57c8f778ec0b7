import type { LinkState } from "@tarmac/contracts";
import { AppError } from "../../http/errors.ts";
import type { DistributionRow } from "./distribution.repo.ts";

export function isExpired(row: Pick<DistributionRow, "expiresAt">, at = new Date()): boolean {
  return row.expiresAt !== null && row.expiresAt.getTime() <= at.getTime();
}

export function isLimitReached(row: Pick<DistributionRow, "installLimit" | "installsCount">): boolean {
  return row.installLimit > 0 && row.installsCount >= row.installLimit;
}

/** Expiry wins over a used-up limit: an expired link stays expired whatever its installs. */
export function linkStateOf(
  row: Pick<DistributionRow, "expiresAt" | "installLimit" | "installsCount">,
  at = new Date(),
): LinkState {
  if (isExpired(row, at)) return "expired";
  if (isLimitReached(row)) return "used_up";
  return "active";
}

/**
 * The expiry a create or update asks for. A time already past would make a link that is dead
 * at birth, which is never what the person meant: refused under the field.
 */
export function requestedExpiry(value: string | null, at = new Date()): Date | null {
  if (value === null) return null;
  const expiresAt = new Date(value);
  if (expiresAt.getTime() <= at.getTime()) {
    throw AppError.validation({ expires_at: ["The expiry time must be in the future."] });
  }
  return expiresAt;
}

/** A name of only spaces is no name. */
export function linkName(value: string | null): string | null {
  const trimmed = value?.trim() ?? "";
  return trimmed === "" ? null : trimmed;
}
