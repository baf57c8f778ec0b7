import { and, eq, gt, lt, sql } from "drizzle-orm";
import type { Database } from "../../platform/db/client.ts";
import {
  ssoConnections,
  ssoLoginStates,
  ssoPolicies,
  ssoSamlRequests,
  ssoUsedAssertions,
} from "./sso.tables.ts";

export type SsoConnectionRow = typeof ssoConnections.$inferSelect;
export type SsoKind = "oidc" | "okta" | "google" | "entra" | "custom";

export async function findConnection(db: Database, organizationId: number, kind: SsoKind) {
  const [row] = await db
    .select()
    .from(ssoConnections)
    .where(and(eq(ssoConnections.organizationId, organizationId), eq(ssoConnections.kind, kind)));
  return row ?? null;
}

export async function saveConnection(
  db: Database,
  values: Omit<typeof ssoConnections.$inferInsert, "revision" | "updatedAt">,
): Promise<SsoConnectionRow> {
  const { organizationId, kind, ...rest } = values;
  const [row] = await db
    .insert(ssoConnections)
    .values(values)
    .onConflictDoUpdate({
      target: [ssoConnections.organizationId, ssoConnections.kind],
      set: { ...rest, revision: sql`${ssoConnections.revision} + 1`, updatedAt: new Date() },
    })
    .returning();
  return row as SsoConnectionRow;
}

export async function deleteConnection(db: Database, organizationId: number, kind: SsoKind): Promise<void> {
  await db
    .delete(ssoConnections)
    .where(and(eq(ssoConnections.organizationId, organizationId), eq(ssoConnections.kind, kind)));
}

/** Enabled connections of the organization (the first sign-in method wins). */
export function listEnabledConnections(db: Database, organizationId: number) {
  return db
    .select()
    .from(ssoConnections)
    .where(and(eq(ssoConnections.organizationId, organizationId), eq(ssoConnections.enabled, true)));
}

export async function findRequireSso(db: Database, organizationId: number): Promise<boolean> {
  const [row] = await db.select().from(ssoPolicies).where(eq(ssoPolicies.organizationId, organizationId));
  return row?.requireSso ?? false;
}

export async function saveRequireSso(
  db: Database,
  organizationId: number,
  requireSso: boolean,
): Promise<void> {
  await db
    .insert(ssoPolicies)
    .values({ organizationId, requireSso })
    .onConflictDoUpdate({ target: ssoPolicies.organizationId, set: { requireSso } });
}

export async function insertLoginState(
  db: Database,
  values: typeof ssoLoginStates.$inferInsert,
): Promise<void> {
  await db.insert(ssoLoginStates).values(values);
}

/** The sign-in under way for this state, taken (deleted) so it cannot be finished twice. */
export async function takeLoginState(db: Database, state: string, now = new Date()) {
  const [row] = await db
    .delete(ssoLoginStates)
    .where(and(eq(ssoLoginStates.state, state), gt(ssoLoginStates.expiresAt, now)))
    .returning();
  return row ?? null;
}

export async function deleteExpiredLoginStates(db: Database, now = new Date()): Promise<void> {
  await db.delete(ssoLoginStates).where(lt(ssoLoginStates.expiresAt, now));
}

/** node-saml's request cache, in the database so that any instance can finish a sign-in. */
export function samlRequestCache(db: Database, maxAgeMs: number) {
  return {
    async saveAsync(key: string, value: string) {
      const [row] = await db
        .insert(ssoSamlRequests)
        .values({ id: key, value })
        .onConflictDoNothing()
        .returning();
      return row ? { value: row.value, createdAt: row.createdAt.getTime() } : null;
    },
    async getAsync(key: string) {
      const [row] = await db
        .select()
        .from(ssoSamlRequests)
        .where(
          and(eq(ssoSamlRequests.id, key), gt(ssoSamlRequests.createdAt, new Date(Date.now() - maxAgeMs))),
        );
      return row?.value ?? null;
    },
    async removeAsync(key: string | null) {
      if (!key) return null;
      const [row] = await db.delete(ssoSamlRequests).where(eq(ssoSamlRequests.id, key)).returning();
      return row?.value ?? null;
    },
  };
}

/** Records an assertion as used; false when it already was (a replay). */
export async function claimAssertion(db: Database, id: string, expiresAt: Date): Promise<boolean> {
  const inserted = await db
    .insert(ssoUsedAssertions)
    .values({ id, expiresAt })
    .onConflictDoNothing()
    .returning();
  return inserted.length === 1;
}

export async function deleteExpiredSamlRecords(
  db: Database,
  now: Date,
  requestMaxAgeMs: number,
): Promise<void> {
  await db.delete(ssoUsedAssertions).where(lt(ssoUsedAssertions.expiresAt, now));
  await db
    .delete(ssoSamlRequests)
    .where(lt(ssoSamlRequests.createdAt, new Date(now.getTime() - requestMaxAgeMs)));
}
