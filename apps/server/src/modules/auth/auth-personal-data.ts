import { findThrottleRows } from "../../http/throttle/throttle.repo.ts";
import type { Database } from "../../platform/db/client.ts";
import { isoOrNull, type PersonalDataSection } from "../../platform/personal-data.ts";
import { listUserCodeMetadata } from "./user-code.repo.ts";

/** Throttle keys that name this account (the limits of login, reinvite and invite). */
export function throttleKeysOf(person: { id: number; email: string }): string[] {
  return [
    `login:account:${person.email}`,
    `reinvite:${person.email}`,
    `invite:user:${person.id}`,
    `reset:to:${person.email}`,
    `resend:to:${person.id}`,
    `resend:by:${person.id}`,
    `credential-check:user:${person.id}`,
  ];
}

/** E-mailed codes (activation, reset, invitation) without their hashes, and the account's throttles. */
export function authPersonalData(db: Database): PersonalDataSection[] {
  return [
    {
      name: "email_codes",
      load: async (person) =>
        (await listUserCodeMetadata(db, person.id)).map((row) => ({
          kind: row.kind,
          created_at: row.createdAt.toISOString(),
          expires_at: row.expiresAt.toISOString(),
          used_at: isoOrNull(row.usedAt),
        })),
    },
    {
      name: "login_throttle",
      load: async (person) =>
        (await findThrottleRows(db, throttleKeysOf(person)))
          .sort((left, right) => left.key.localeCompare(right.key))
          .map((row) => ({
            key: row.key,
            failures: row.failures,
            window_started_at: row.windowStartedAt.toISOString(),
            locked_until: isoOrNull(row.lockedUntil),
          })),
    },
  ];
}
