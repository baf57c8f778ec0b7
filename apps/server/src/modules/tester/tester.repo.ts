import { and, asc, eq, or, sql } from "drizzle-orm";
import { anyOf } from "../../platform/db/any-of.ts";
import type { Database } from "../../platform/db/client.ts";
import { selectSearchableList } from "../../platform/db/id-list.ts";
import { preparedPerDatabase } from "../../platform/db/prepared.ts";
import { appMails, testerGroupMembers, testerGroups, testers } from "./tester.tables.ts";

export type TesterRow = typeof testers.$inferSelect;
export type TesterGroupRow = typeof testerGroups.$inferSelect;
export type AppMailRow = typeof appMails.$inferSelect;

/** Testers of an app, or of one group. */
function testerFilter(filter: { appId: number; groupId?: number }) {
  return and(
    eq(testers.applicationId, filter.appId),
    filter.groupId === undefined
      ? undefined
      : sql`exists (select 1 from ${testerGroupMembers} m where m.tester_id = ${testers.id} and m.group_id = ${filter.groupId})`,
  );
}

/** The testers of an app or group by address, with their folded search texts (see pageOfList). */
export function listTesterSearchTexts(db: Database, filter: { appId: number; groupId?: number }) {
  return selectSearchableList(
    db,
    db
      .select({ id: testers.id, search: sql<string>`${testers.searchText}`.as("search") })
      .from(testers)
      .where(testerFilter(filter))
      .orderBy(asc(testers.email), asc(testers.id)),
  );
}

export async function listAllTesters(db: Database, appId: number) {
  return db.select().from(testers).where(eq(testers.applicationId, appId)).orderBy(asc(testers.email));
}

export async function findTester(db: Database, id: number): Promise<TesterRow | null> {
  const [row] = await db.select().from(testers).where(eq(testers.id, id)).limit(1);
  return row ?? null;
}

export async function findTestersByEmail(db: Database, appId: number, emails: string[]) {
  if (emails.length === 0) return [];
  return db
    .select()
    .from(testers)
    .where(and(eq(testers.applicationId, appId), anyOf(testers.email, emails)));
}

const testersByIdsQuery = preparedPerDatabase((db) =>
  db
    .select()
    .from(testers)
    .where(
      and(eq(testers.applicationId, sql.placeholder("appId")), anyOf(testers.id, sql.placeholder("ids"))),
    )
    .prepare("testers_by_ids"),
);

export async function findTestersByIds(db: Database, appId: number, ids: number[]) {
  if (ids.length === 0) return [];
  return testersByIdsQuery(db).execute({ appId, ids });
}

export async function insertTesters(
  db: Database,
  rows: {
    organizationId: number;
    applicationId: number;
    email: string;
    firstName: string;
    lastName: string;
    userId: number | null;
  }[],
) {
  if (rows.length === 0) return [];
  return db.insert(testers).values(rows).returning();
}

export async function updateTester(
  db: Database,
  id: number,
  values: Partial<Pick<TesterRow, "firstName" | "lastName" | "userId">>,
) {
  await db.update(testers).set(values).where(eq(testers.id, id));
}

export async function deleteTester(db: Database, id: number) {
  await db.delete(testers).where(eq(testers.id, id));
}

const groupIdsOfTestersQuery = preparedPerDatabase((db) =>
  db
    .select()
    .from(testerGroupMembers)
    .where(anyOf(testerGroupMembers.testerId, sql.placeholder("ids")))
    .orderBy(asc(testerGroupMembers.groupId))
    .prepare("group_ids_of_testers"),
);

export async function listGroupIdsOfTesters(db: Database, testerIds: number[]) {
  if (testerIds.length === 0) return [];
  return groupIdsOfTestersQuery(db).execute({ ids: testerIds });
}

export async function addGroupMembers(db: Database, pairs: { groupId: number; testerId: number }[]) {
  if (pairs.length === 0) return;
  await db.insert(testerGroupMembers).values(pairs).onConflictDoNothing();
}

/** Sets the tester's groups to exactly `groupIds`. */
export async function replaceGroupsOfTester(db: Database, testerId: number, groupIds: number[]) {
  await db.delete(testerGroupMembers).where(eq(testerGroupMembers.testerId, testerId));
  await addGroupMembers(
    db,
    groupIds.map((groupId) => ({ groupId, testerId })),
  );
}

export async function listGroups(db: Database, appId: number) {
  return db
    .select({
      id: testerGroups.id,
      applicationId: testerGroups.applicationId,
      title: testerGroups.title,
      testersCount: sql<number>`(select count(*)::int from ${testerGroupMembers} m where m.group_id = ${testerGroups.id})`,
      testerIds: sql<
        number[]
      >`array(select m.tester_id from ${testerGroupMembers} m where m.group_id = ${testerGroups.id} order by m.tester_id)`,
    })
    .from(testerGroups)
    .where(eq(testerGroups.applicationId, appId))
    .orderBy(asc(testerGroups.title), asc(testerGroups.id));
}

export async function findGroup(db: Database, id: number): Promise<TesterGroupRow | null> {
  const [row] = await db.select().from(testerGroups).where(eq(testerGroups.id, id)).limit(1);
  return row ?? null;
}

export async function findGroupsOfApp(db: Database, appId: number, ids: number[]) {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(testerGroups)
    .where(and(eq(testerGroups.applicationId, appId), anyOf(testerGroups.id, ids)));
}

export async function findGroupByTitle(db: Database, appId: number, title: string) {
  const [row] = await db
    .select()
    .from(testerGroups)
    .where(and(eq(testerGroups.applicationId, appId), sql`lower(${testerGroups.title}) = lower(${title})`))
    .limit(1);
  return row ?? null;
}

export async function insertGroup(
  db: Database,
  values: { organizationId: number; applicationId: number; title: string },
) {
  const [row] = await db.insert(testerGroups).values(values).onConflictDoNothing().returning();
  return row ?? null;
}

export async function deleteGroup(db: Database, id: number) {
  await db.delete(testerGroups).where(eq(testerGroups.id, id));
}

export async function listAppMails(db: Database, appId: number) {
  return db.select().from(appMails).where(eq(appMails.applicationId, appId)).orderBy(asc(appMails.email));
}

export async function findAppMail(db: Database, id: number): Promise<AppMailRow | null> {
  const [row] = await db.select().from(appMails).where(eq(appMails.id, id)).limit(1);
  return row ?? null;
}

export async function findAppMailsByIds(db: Database, appId: number, ids: number[]) {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(appMails)
    .where(and(eq(appMails.applicationId, appId), anyOf(appMails.id, ids)));
}

export async function insertAppMail(
  db: Database,
  values: { organizationId: number; applicationId: number; email: string },
) {
  const [row] = await db.insert(appMails).values(values).onConflictDoNothing().returning();
  return row ?? null;
}

export async function deleteAppMail(db: Database, id: number) {
  await db.delete(appMails).where(eq(appMails.id, id));
}

/** A tester of the app by the account's e-mail, or linked to the account. */
export async function isTesterOfApp(
  db: Database,
  applicationId: number,
  user: { userId: number; email: string },
) {
  const [row] = await db
    .select({ id: testers.id })
    .from(testers)
    .where(
      and(
        eq(testers.applicationId, applicationId),
        or(eq(testers.email, user.email.toLowerCase()), eq(testers.userId, user.userId)),
      ),
    )
    .limit(1);
  return Boolean(row);
}
