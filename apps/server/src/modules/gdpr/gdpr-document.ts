/**
 * Writes the personal data export: one JSON document with everything stored about a user.
 * Sections are queried and written one after another, so the document streams to storage
 * instead of being held whole in memory. Secrets (password and token hashes, the 2FA secret,
 * code hashes) are left out; their existence and metadata are reported instead.
 */

import type { Database } from "../../platform/db/client.ts";
import type { UserRow } from "../users/users.repo.ts";
import {
  selectCodeMetadata,
  selectExportHistory,
  selectMailTo,
  selectMemberships,
  selectProjectMemberships,
  selectRecoveryCodeStates,
  selectTeamMemberships,
  selectThrottleEntries,
  selectTokenMetadata,
} from "./gdpr-document.repo.ts";

export const exportFormat = "tarmac-personal-data/1";

const roleNames: Record<number, string> = {
  1: "owner",
  2: "admin",
  3: "mobile user",
  4: "team manager",
  5: "tester",
};

function iso(value: Date | null): string | null {
  return value ? value.toISOString() : null;
}

/** Throttle keys that name this account (see the auth module's limits). */
export function throttleKeysOf(user: Pick<UserRow, "id" | "email">): string[] {
  return [`login:account:${user.email}`, `reinvite:${user.email}`, `invite:user:${user.id}`];
}

type SectionLoader = () => Promise<unknown>;

function sectionsOf(db: Database, user: UserRow, now: Date): [string, SectionLoader][] {
  return [
    ["format", async () => exportFormat],
    ["generated_at", async () => now.toISOString()],
    [
      "profile",
      async () => ({
        user_id: user.id,
        email: user.email,
        first_name: user.firstName,
        last_name: user.lastName,
        is_active: user.isActive,
        has_password: user.passwordHash !== null,
        two_factor_enabled: user.twoFactorEnabled,
        welcome_closed: user.welcomeClosed,
        date_joined: user.createdAt.toISOString(),
      }),
    ],
    [
      "organizations",
      async () =>
        (await selectMemberships(db, user.id)).map((row) => ({
          org_id: row.organizationId,
          title: row.organizationTitle,
          subdomain: row.subdomain,
          role: row.role,
          role_name: roleNames[row.role] ?? null,
          joined_at: row.joinedAt.toISOString(),
        })),
    ],
    [
      "teams",
      async () =>
        (await selectTeamMemberships(db, user.id)).map((row) => ({
          team_id: row.teamId,
          title: row.teamTitle,
          org_id: row.organizationId,
          org_title: row.organizationTitle,
        })),
    ],
    [
      "projects",
      async () =>
        (await selectProjectMemberships(db, user.id)).map((row) => ({
          project_id: row.projectId,
          title: row.projectTitle,
          org_id: row.organizationId,
          org_title: row.organizationTitle,
          role: row.role,
          is_access_all_envs: row.isAccessAllEnvs,
          access_envs: row.accessEnvs,
          joined_at: row.joinedAt.toISOString(),
        })),
    ],
    [
      "tokens",
      async () =>
        (await selectTokenMetadata(db, user.id)).map((row) => ({
          kind: row.kind,
          created_at: row.createdAt.toISOString(),
          last_used_at: iso(row.lastUsedAt),
          expires_at: iso(row.expiresAt),
          revoked_at: iso(row.revokedAt),
        })),
    ],
    [
      "recovery_codes",
      async () => {
        const codes = await selectRecoveryCodeStates(db, user.id);
        return { total: codes.length, unused: codes.filter((code) => code.usedAt === null).length };
      },
    ],
    [
      "email_codes",
      async () =>
        (await selectCodeMetadata(db, user.id)).map((row) => ({
          kind: row.kind,
          created_at: row.createdAt.toISOString(),
          expires_at: row.expiresAt.toISOString(),
          used_at: iso(row.usedAt),
        })),
    ],
    [
      "login_throttle",
      async () =>
        (await selectThrottleEntries(db, throttleKeysOf(user))).map((row) => ({
          key: row.key,
          failures: row.failures,
          window_started_at: row.windowStartedAt.toISOString(),
          locked_until: iso(row.lockedUntil),
        })),
    ],
    [
      "data_exports",
      async () =>
        (await selectExportHistory(db, user.id)).map((row) => ({
          id: row.id,
          status: row.status,
          created_at: row.createdAt.toISOString(),
          completed_at: iso(row.completedAt),
          size: row.size,
        })),
    ],
    [
      "mail",
      async () =>
        (await selectMailTo(db, user.email)).map((row) => ({
          subject: row.subject,
          text: row.text,
          html: row.html,
          created_at: row.createdAt.toISOString(),
        })),
    ],
  ];
}

/** The document as UTF-8 chunks, one section at a time. */
export async function* writeExportDocument(db: Database, user: UserRow, now: Date): AsyncGenerator<Buffer> {
  let first = true;
  for (const [name, load] of sectionsOf(db, user, now)) {
    const value = await load();
    yield Buffer.from(`${first ? "{\n" : ",\n"}${JSON.stringify(name)}: ${JSON.stringify(value, null, 2)}`);
    first = false;
  }
  yield Buffer.from("\n}\n");
}
