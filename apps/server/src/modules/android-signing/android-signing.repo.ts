import { and, eq, isNull } from "drizzle-orm";
import type { Database } from "../../platform/db/client.ts";
import { androidSigningKeys } from "./android-signing.tables.ts";

export type SigningKeyRow = typeof androidSigningKeys.$inferSelect;
export type SigningKeyValues = Omit<
  typeof androidSigningKeys.$inferInsert,
  "id" | "organizationId" | "applicationId" | "origin" | "createdAt" | "updatedAt"
>;
export type KeyOrigin = "uploaded" | "generated";

/** The app's key of that origin, or with `applicationId` null the organization's keystore. */
export async function findSigningKey(
  db: Database,
  organizationId: number,
  applicationId: number | null,
  origin: KeyOrigin,
): Promise<SigningKeyRow | null> {
  const [row] = await db
    .select()
    .from(androidSigningKeys)
    .where(
      and(
        eq(androidSigningKeys.organizationId, organizationId),
        applicationId === null
          ? isNull(androidSigningKeys.applicationId)
          : eq(androidSigningKeys.applicationId, applicationId),
        eq(androidSigningKeys.origin, origin),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** Replaces the keystore an app (or with null, the organization) brought. */
export async function saveUploadedKey(
  db: Database,
  organizationId: number,
  applicationId: number | null,
  values: SigningKeyValues,
): Promise<SigningKeyRow> {
  return db.transaction(async (tx) => {
    const existing = await findSigningKey(tx, organizationId, applicationId, "uploaded");
    if (existing) {
      const [row] = await tx
        .update(androidSigningKeys)
        .set({ ...values, updatedAt: new Date() })
        .where(
          and(eq(androidSigningKeys.id, existing.id), eq(androidSigningKeys.organizationId, organizationId)),
        )
        .returning();
      return row as SigningKeyRow;
    }
    const [row] = await tx
      .insert(androidSigningKeys)
      .values({ organizationId, applicationId, origin: "uploaded", ...values })
      .returning();
    return row as SigningKeyRow;
  });
}

/**
 * Keeps a generated key unless the app already has one: two builds signing at once must end up
 * with one key, so the loser of the race reads the winner's.
 */
export async function insertGeneratedKey(
  db: Database,
  organizationId: number,
  applicationId: number,
  values: SigningKeyValues,
): Promise<SigningKeyRow> {
  await db
    .insert(androidSigningKeys)
    .values({ organizationId, applicationId, origin: "generated", ...values })
    .onConflictDoNothing();
  const row = await findSigningKey(db, organizationId, applicationId, "generated");
  if (!row) throw new Error("the generated signing key was not kept");
  return row;
}
