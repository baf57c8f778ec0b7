import { and, asc, eq, isNotNull } from "drizzle-orm";
import type { Database } from "../../platform/db/client.ts";
import { ssoDomains } from "./sso.tables.ts";

export type DomainClaimRow = typeof ssoDomains.$inferSelect;

export async function insertDomainClaim(
  db: Database,
  row: { organizationId: number; domain: string; token: string },
): Promise<DomainClaimRow> {
  const [created] = await db.insert(ssoDomains).values(row).returning();
  if (!created) throw new Error("domain claim insert returned no row");
  return created;
}

export function listDomainClaims(db: Database, organizationId: number) {
  return db
    .select()
    .from(ssoDomains)
    .where(eq(ssoDomains.organizationId, organizationId))
    .orderBy(asc(ssoDomains.domain));
}

export async function findDomainClaim(db: Database, organizationId: number, id: number) {
  const [row] = await db
    .select()
    .from(ssoDomains)
    .where(and(eq(ssoDomains.id, id), eq(ssoDomains.organizationId, organizationId)));
  return row ?? null;
}

export async function deleteDomainClaim(db: Database, organizationId: number, id: number): Promise<boolean> {
  const deleted = await db
    .delete(ssoDomains)
    .where(and(eq(ssoDomains.id, id), eq(ssoDomains.organizationId, organizationId)))
    .returning({ id: ssoDomains.id });
  return deleted.length === 1;
}

/** The result of one look at the TXT record (verifiedAt null: not proven, or the proof lapsed). */
export async function saveDomainCheck(
  db: Database,
  id: number,
  values: { verifiedAt: Date | null; checkedAt: Date; failedChecks: number },
): Promise<DomainClaimRow | null> {
  const [row] = await db.update(ssoDomains).set(values).where(eq(ssoDomains.id, id)).returning();
  return row ?? null;
}

/** The organization holding the proven claim on the domain, if any. */
export async function findProvenOwner(db: Database, domain: string): Promise<number | null> {
  const [row] = await db
    .select({ organizationId: ssoDomains.organizationId })
    .from(ssoDomains)
    .where(and(eq(ssoDomains.domain, domain), isNotNull(ssoDomains.verifiedAt)));
  return row?.organizationId ?? null;
}

/** Every proven claim, for the periodic re-check. */
export function listProvenClaims(db: Database) {
  return db.select().from(ssoDomains).where(isNotNull(ssoDomains.verifiedAt)).orderBy(asc(ssoDomains.id));
}
