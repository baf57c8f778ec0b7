import { and, desc, eq, gt, or, sql } from "drizzle-orm";
import type { Database } from "../../platform/db/client.ts";
import { testerMails } from "./send-builds.tables.ts";

export async function findTesterMail(db: Database, id: number) {
  const [row] = await db.select().from(testerMails).where(eq(testerMails.id, id)).limit(1);
  return row ?? null;
}

export async function markTesterMail(
  db: Database,
  id: number,
  values: { state: string; error: string | null; sentAt?: Date },
) {
  await db.update(testerMails).set(values).where(eq(testerMails.id, id));
}

export async function insertTesterMails(
  db: Database,
  rows: { organizationId: number; applicationId: number; batchId: string; email: string; sentBy: number }[],
) {
  return db.insert(testerMails).values(rows).returning({ id: testerMails.id, email: testerMails.email });
}

/**
 * Mails of the organization that take a place in the current minute's budget: still waiting,
 * or sent during the last minute.
 */
export async function countBusyMailSlots(db: Database, organizationId: number, now: Date): Promise<number> {
  const minuteAgo = new Date(now.getTime() - 60_000);
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(testerMails)
    .where(
      and(
        eq(testerMails.organizationId, organizationId),
        or(eq(testerMails.state, "queued"), gt(testerMails.sentAt, minuteAgo)),
      ),
    );
  return Number(row?.n ?? 0);
}

export async function listBatches(db: Database, appId: number, limit: number) {
  return db
    .select({
      batchId: testerMails.batchId,
      createdAt: sql<Date>`min(${testerMails.createdAt})`.mapWith((value) => new Date(value)),
      sentBy: sql<number | null>`max(${testerMails.sentBy})`,
      total: sql<number>`count(*)::int`,
      queued: sql<number>`(count(*) filter (where ${testerMails.state} = 'queued'))::int`,
      sent: sql<number>`(count(*) filter (where ${testerMails.state} = 'sent'))::int`,
      failed: sql<number>`(count(*) filter (where ${testerMails.state} = 'failed'))::int`,
    })
    .from(testerMails)
    .where(eq(testerMails.applicationId, appId))
    .groupBy(testerMails.batchId)
    .orderBy(desc(sql`min(${testerMails.id})`))
    .limit(limit);
}
