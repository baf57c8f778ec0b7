import { type AnyColumn, and, asc, count, desc, eq, or, type SQL, sql } from "drizzle-orm";
import { anyOf } from "../../platform/db/any-of.ts";
import type { Database } from "../../platform/db/client.ts";
import { foldedContains } from "../../platform/db/text-search.ts";
import { feedbackItems } from "./feedback.tables.ts";

export type FeedbackRow = typeof feedbackItems.$inferSelect;
export type NewFeedback = typeof feedbackItems.$inferInsert;

export async function insertFeedback(db: Database, values: NewFeedback): Promise<FeedbackRow> {
  const [row] = await db.insert(feedbackItems).values(values).returning();
  return row as FeedbackRow;
}

export async function findFeedback(db: Database, id: number): Promise<FeedbackRow | null> {
  const [row] = await db.select().from(feedbackItems).where(eq(feedbackItems.id, id));
  return row ?? null;
}

export async function updateFeedback(
  db: Database,
  id: number,
  values: Partial<Pick<FeedbackRow, "status" | "assigneeId" | "internalNote">>,
): Promise<FeedbackRow | null> {
  const [row] = await db
    .update(feedbackItems)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(feedbackItems.id, id))
    .returning();
  return row ?? null;
}

export interface FeedbackFilter {
  organizationId: number;
  applicationId?: number;
  /** Exact statuses (the open filter is new and in progress). */
  statuses?: number[];
  tag?: string;
  buildVersion?: string;
  device?: string;
}

/** A Map, not an object: a field such as `__proto__` or `toString` must find nothing. */
const sortable = new Map<string, AnyColumn>([
  ["created_at", feedbackItems.createdAt],
  ["status", feedbackItems.status],
  ["tag", feedbackItems.tag],
  ["build_version", feedbackItems.buildVersion],
  ["device_name", feedbackItems.deviceName],
]);

/** DRF-style `ordering` ("-created_at,tag"); unknown fields are ignored, a descending id always ends it. */
export function orderingOf(ordering: string | undefined): SQL[] {
  const parts = (ordering ?? "-created_at")
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
  const order: SQL[] = [];
  for (const part of parts) {
    const descending = part.startsWith("-");
    const column = sortable.get(part.replace(/^-/, ""));
    if (column) order.push(descending ? desc(column) : asc(column));
  }
  order.push(desc(feedbackItems.id));
  return order;
}

export async function listFeedback(
  db: Database,
  filter: FeedbackFilter,
  page: { limit: number; offset: number; order: SQL[] },
): Promise<{ count: number; rows: FeedbackRow[] }> {
  const conditions: SQL[] = [eq(feedbackItems.organizationId, filter.organizationId)];
  if (filter.applicationId !== undefined)
    conditions.push(eq(feedbackItems.applicationId, filter.applicationId));
  if (filter.statuses) conditions.push(anyOf(feedbackItems.status, filter.statuses));
  if (filter.tag) conditions.push(eq(feedbackItems.tag, filter.tag));
  if (filter.buildVersion) conditions.push(eq(feedbackItems.buildVersion, filter.buildVersion));
  if (filter.device) conditions.push(foldedContains(feedbackItems.deviceName, filter.device));
  const where = and(...conditions);
  const [total] = await db.select({ value: count() }).from(feedbackItems).where(where);
  const rows = await db
    .select()
    .from(feedbackItems)
    .where(where)
    .orderBy(...page.order)
    .limit(page.limit)
    .offset(page.offset);
  return { count: total?.value ?? 0, rows };
}

/** Screenshots of the apps' reports (they go with the apps). */
export async function listImageKeys(db: Database, applicationIds: number[]): Promise<string[]> {
  if (applicationIds.length === 0) return [];
  const rows = await db
    .select({ key: feedbackItems.imageKey })
    .from(feedbackItems)
    .where(anyOf(feedbackItems.applicationId, applicationIds));
  return rows.flatMap((row) => (row.key ? [row.key] : []));
}

/** Reports sent with this e-mail address, or assigned to this person (a personal data export). */
export function listFeedbackOfPerson(db: Database, person: { id: number; email: string }) {
  return db
    .select()
    .from(feedbackItems)
    .where(
      or(
        eq(sql`lower(${feedbackItems.email})`, person.email.toLowerCase()),
        eq(feedbackItems.assigneeId, person.id),
      ),
    )
    .orderBy(desc(feedbackItems.id))
    .limit(10_000);
}
