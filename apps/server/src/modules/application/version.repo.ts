import { and, desc, eq, ne, sql } from "drizzle-orm";
import type { Database } from "../../platform/db/client.ts";
import { selectIdList } from "../../platform/db/id-list.ts";
import type { VersionRow } from "./application.repo.ts";
import { applications, versions } from "./application.tables.ts";

export async function findVersion(db: Database, versionId: number): Promise<VersionRow | null> {
  const [row] = await db.select().from(versions).where(eq(versions.id, versionId)).limit(1);
  return row ?? null;
}

function releasedOnly(onlyReleased: boolean) {
  return onlyReleased ? and(eq(versions.state, "ready"), eq(versions.readyToSale, true)) : undefined;
}

/** An app's build ids, newest first (the (application_id, id) index), for pages and the count. */
export function listVersionIds(
  db: Database,
  organizationId: number,
  applicationId: number,
  onlyReleased: boolean,
): Promise<Float64Array> {
  const where = and(
    eq(versions.organizationId, organizationId),
    eq(versions.applicationId, applicationId),
    releasedOnly(onlyReleased),
  );
  return selectIdList(
    db,
    sql`select ${versions.id} from ${versions} where ${where} order by ${versions.id} desc`,
  );
}

export async function updateVersion(
  db: Database,
  organizationId: number,
  versionId: number,
  values: Partial<Pick<VersionRow, "whatsNew" | "comment" | "readyToSale">>,
): Promise<VersionRow | null> {
  const [row] = await db
    .update(versions)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(versions.organizationId, organizationId), eq(versions.id, versionId)))
    .returning();
  return row ?? null;
}

/** The newest ready version of the app other than `exceptId`, to become current. */
export async function findNewestReadyVersionId(
  db: Database,
  applicationId: number,
  exceptId: number,
): Promise<number | null> {
  const [row] = await db
    .select({ id: versions.id })
    .from(versions)
    .where(
      and(eq(versions.applicationId, applicationId), eq(versions.state, "ready"), ne(versions.id, exceptId)),
    )
    .orderBy(desc(versions.id))
    .limit(1);
  return row?.id ?? null;
}

export async function deleteVersionRow(db: Database, versionId: number): Promise<void> {
  await db.delete(versions).where(eq(versions.id, versionId));
}

export async function setCurrentAfterDeletion(
  db: Database,
  applicationId: number,
  currentVersionId: number | null,
): Promise<void> {
  await db
    .update(applications)
    .set({
      currentVersionId,
      versionsCount: sql`greatest(${applications.versionsCount} - 1, 0)`,
      updatedAt: new Date(),
    })
    .where(eq(applications.id, applicationId));
}

/** The newest build of the app whose version or build number is what an installed app reported. */
export async function findVersionReported(
  db: Database,
  applicationId: number,
  reported: string,
): Promise<VersionRow | null> {
  const [row] = await db
    .select()
    .from(versions)
    .where(
      and(
        eq(versions.applicationId, applicationId),
        sql`(${versions.version} = ${reported} or ${versions.buildNumber} = ${reported})`,
      ),
    )
    .orderBy(desc(versions.id))
    .limit(1);
  return row ?? null;
}
