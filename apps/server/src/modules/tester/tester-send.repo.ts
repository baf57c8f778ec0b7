import { and, asc, desc, eq, gt, inArray, or, sql } from "drizzle-orm";
import type { Database } from "../../platform/db/client.ts";
import {
  applications,
  memberships,
  projectMembers,
  testerMails,
  users,
  versions,
} from "../../platform/db/schema/index.ts";

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

export async function listProjectApps(db: Database, organizationId: number, projectId: number) {
  return db
    .select()
    .from(applications)
    .where(and(eq(applications.organizationId, organizationId), eq(applications.projectId, projectId)))
    .orderBy(asc(applications.appType), asc(applications.id));
}

export async function findVersionsOfOrganization(db: Database, organizationId: number, ids: number[]) {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(versions)
    .where(and(eq(versions.organizationId, organizationId), inArray(versions.id, ids)));
}

/** The newest finished builds of each app, for the version picker. */
export async function listRecentVersions(db: Database, appIds: number[], perApp: number) {
  if (appIds.length === 0) return [];
  const ranked = db
    .select({
      id: versions.id,
      applicationId: versions.applicationId,
      version: versions.version,
      buildNumber: versions.buildNumber,
      createdAt: versions.createdAt,
      rank: sql<number>`row_number() over (partition by ${versions.applicationId} order by ${versions.id} desc)`.as(
        "rank",
      ),
    })
    .from(versions)
    .where(and(inArray(versions.applicationId, appIds), eq(versions.state, "ready")))
    .as("ranked");
  return db
    .select()
    .from(ranked)
    .where(sql`${ranked.rank} <= ${perApp}`)
    .orderBy(asc(ranked.applicationId), desc(ranked.id));
}

/** Members of the organization with their membership of the project (if any), optionally only some users. */
export async function listMembersWithProjectAccess(
  db: Database,
  organizationId: number,
  projectId: number,
  userIds?: number[],
) {
  if (userIds && userIds.length === 0) return [];
  return db
    .select({
      userId: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      role: memberships.role,
      projectRole: projectMembers.role,
      isAccessAllEnvs: projectMembers.isAccessAllEnvs,
      accessEnvs: projectMembers.accessEnvs,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .leftJoin(
      projectMembers,
      and(eq(projectMembers.projectId, projectId), eq(projectMembers.userId, memberships.userId)),
    )
    .where(
      and(
        eq(memberships.organizationId, organizationId),
        userIds ? inArray(memberships.userId, userIds) : undefined,
      ),
    )
    .orderBy(asc(users.email));
}

export async function findUserName(db: Database, userId: number) {
  const [row] = await db
    .select({ email: users.email, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row ?? null;
}
