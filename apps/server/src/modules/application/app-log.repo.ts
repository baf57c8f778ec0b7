import { and, count, desc, eq } from "drizzle-orm";
import type { Database } from "../../platform/db/client.ts";
import { appLogs } from "./application.tables.ts";

export async function insertAppLog(db: Database, values: typeof appLogs.$inferInsert): Promise<void> {
  await db.insert(appLogs).values(values);
}

export async function listAppLogs(
  db: Database,
  organizationId: number,
  applicationId: number,
  page: { limit: number; offset: number },
) {
  const where = and(eq(appLogs.organizationId, organizationId), eq(appLogs.applicationId, applicationId));
  const [total] = await db.select({ value: count() }).from(appLogs).where(where);
  const rows = await db
    .select({
      id: appLogs.id,
      action: appLogs.action,
      detail: appLogs.detail,
      versionId: appLogs.versionId,
      createdAt: appLogs.createdAt,
      userId: appLogs.userId,
    })
    .from(appLogs)
    .where(where)
    .orderBy(desc(appLogs.id))
    .limit(page.limit)
    .offset(page.offset);
  return { count: total?.value ?? 0, rows };
}
