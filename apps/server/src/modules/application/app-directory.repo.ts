import { and, asc, count, eq, isNotNull, ne } from "drizzle-orm";
import { anyOf } from "../../platform/db/any-of.ts";
import type { Database } from "../../platform/db/client.ts";
import { applications } from "./application.tables.ts";

/** Titles of the organization's apps among these ids; ids of other organizations find nothing. */
export async function findAppTitles(
  db: Database,
  organizationId: number,
  ids: number[],
): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: applications.id, title: applications.title })
    .from(applications)
    .where(and(eq(applications.organizationId, organizationId), anyOf(applications.id, ids)));
  return new Map(rows.map((row) => [row.id, row.title]));
}

/** The organization's apps that post each new build to a chat channel, by title. */
export async function listChatChannelApps(
  db: Database,
  organizationId: number,
  page: { limit: number; offset: number },
) {
  const scope = and(
    eq(applications.organizationId, organizationId),
    isNotNull(applications.slackWebhookSealed),
    ne(applications.slackWebhookSealed, ""),
  );
  const [total] = await db.select({ value: count() }).from(applications).where(scope);
  const rows = await db
    .select()
    .from(applications)
    .where(scope)
    .orderBy(asc(applications.title), asc(applications.id))
    .limit(page.limit)
    .offset(page.offset);
  return { count: total?.value ?? 0, rows };
}
