import { count, desc, eq } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { mailOutbox } from "./outbox.tables.ts";

export async function listOutbox(db: Database, filter: { to?: string; limit: number; offset: number }) {
  const where = filter.to ? eq(mailOutbox.toAddress, filter.to) : undefined;
  const [total] = await db.select({ value: count() }).from(mailOutbox).where(where);
  const rows = await db
    .select()
    .from(mailOutbox)
    .where(where)
    .orderBy(desc(mailOutbox.id))
    .limit(filter.limit)
    .offset(filter.offset);
  return { count: total?.value ?? 0, rows };
}

export async function listOutboxTo(db: Database, address: string) {
  return db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, address)).orderBy(mailOutbox.id);
}
