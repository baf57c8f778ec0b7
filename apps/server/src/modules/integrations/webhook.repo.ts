import { and, arrayContains, count, desc, eq, isNull, or, type SQL } from "drizzle-orm";
import type { Database } from "../../platform/db/client.ts";
import { webhooks } from "./integrations.tables.ts";

export type WebhookRow = typeof webhooks.$inferSelect;
export type NewWebhook = typeof webhooks.$inferInsert;

export async function insertWebhook(db: Database, values: NewWebhook): Promise<WebhookRow> {
  const [row] = await db.insert(webhooks).values(values).returning();
  return row as WebhookRow;
}

export async function findWebhook(db: Database, id: number): Promise<WebhookRow | null> {
  const [row] = await db.select().from(webhooks).where(eq(webhooks.id, id));
  return row ?? null;
}

export async function updateWebhook(
  db: Database,
  id: number,
  values: Partial<Omit<NewWebhook, "id" | "organizationId" | "applicationId">>,
): Promise<WebhookRow | null> {
  const [row] = await db
    .update(webhooks)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(webhooks.id, id))
    .returning();
  return row ?? null;
}

export async function deleteWebhook(db: Database, id: number): Promise<void> {
  await db.delete(webhooks).where(eq(webhooks.id, id));
}

/** The organization's webhooks, or one app's (with `includeOrganizationWide`, also those for every app). */
export async function listWebhooks(
  db: Database,
  organizationId: number,
  filter: { applicationId?: number; includeOrganizationWide?: boolean },
  page: { limit: number; offset: number },
): Promise<{ count: number; rows: WebhookRow[] }> {
  let scope: SQL | undefined = eq(webhooks.organizationId, organizationId);
  if (filter.applicationId !== undefined) {
    const ofApp = eq(webhooks.applicationId, filter.applicationId);
    scope = and(scope, filter.includeOrganizationWide ? or(ofApp, isNull(webhooks.applicationId)) : ofApp);
  }
  const [total] = await db.select({ value: count() }).from(webhooks).where(scope);
  const rows = await db
    .select()
    .from(webhooks)
    .where(scope)
    .orderBy(desc(webhooks.id))
    .limit(page.limit)
    .offset(page.offset);
  return { count: total?.value ?? 0, rows };
}

/** Enabled webhooks that asked for this event: the organization-wide ones and the app's own. */
export function listSubscribers(
  db: Database,
  organizationId: number,
  applicationId: number | null,
  eventType: string,
): Promise<WebhookRow[]> {
  const appScope =
    applicationId === null
      ? isNull(webhooks.applicationId)
      : or(isNull(webhooks.applicationId), eq(webhooks.applicationId, applicationId));
  return db
    .select()
    .from(webhooks)
    .where(
      and(
        eq(webhooks.organizationId, organizationId),
        eq(webhooks.enabled, true),
        appScope,
        arrayContains(webhooks.events, [eventType]),
      ),
    );
}
