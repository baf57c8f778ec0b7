import { eq, sql } from "drizzle-orm";
import type { Database } from "../../platform/db/client.ts";
import { organizationMailServers } from "./mail-server.tables.ts";

export type MailServerRow = typeof organizationMailServers.$inferSelect;
export type MailServerValues = Omit<MailServerRow, "organizationId" | "revision" | "updatedAt">;

export async function findMailServer(db: Database, organizationId: number): Promise<MailServerRow | null> {
  const [row] = await db
    .select()
    .from(organizationMailServers)
    .where(eq(organizationMailServers.organizationId, organizationId));
  return row ?? null;
}

export async function saveMailServer(
  db: Database,
  organizationId: number,
  values: MailServerValues,
): Promise<MailServerRow> {
  const [row] = await db
    .insert(organizationMailServers)
    .values({ organizationId, ...values })
    .onConflictDoUpdate({
      target: organizationMailServers.organizationId,
      set: { ...values, revision: sql`${organizationMailServers.revision} + 1`, updatedAt: new Date() },
    })
    .returning();
  return row as MailServerRow;
}
