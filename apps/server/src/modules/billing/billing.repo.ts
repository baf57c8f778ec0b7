import { and, count, desc, eq, notInArray, sql } from "drizzle-orm";
import type { Database } from "../../platform/db/client.ts";
import { billingCustomers, billingEvents, billingInvoices, billingSubscriptions } from "./billing.tables.ts";

export type CustomerRow = typeof billingCustomers.$inferSelect;
export type SubscriptionRow = typeof billingSubscriptions.$inferSelect;
export type InvoiceRow = typeof billingInvoices.$inferSelect;

/** Statuses a subscription never leaves. */
export const endedStatuses = ["canceled", "incomplete_expired"];
/** Invoice statuses that are final: a late event about an earlier state never undoes them. */
const finalInvoiceStatuses = ["paid", "void", "uncollectible"];

export async function findCustomer(db: Database, organizationId: number): Promise<CustomerRow | null> {
  const [row] = await db
    .select()
    .from(billingCustomers)
    .where(eq(billingCustomers.organizationId, organizationId));
  return row ?? null;
}

export async function findCustomerByStripeId(db: Database, customerId: string): Promise<CustomerRow | null> {
  const [row] = await db.select().from(billingCustomers).where(eq(billingCustomers.customerId, customerId));
  return row ?? null;
}

/** Keeps the first customer saved for the organization; returns the one kept. */
export async function insertCustomer(db: Database, organizationId: number, customerId: string) {
  await db.insert(billingCustomers).values({ organizationId, customerId }).onConflictDoNothing();
  return findCustomer(db, organizationId);
}

/** The customer row, locked for the rest of `tx`: grace periods start and end one at a time. */
export async function lockCustomer(tx: Database, organizationId: number): Promise<CustomerRow | null> {
  const [row] = await tx
    .select()
    .from(billingCustomers)
    .where(eq(billingCustomers.organizationId, organizationId))
    .for("update");
  return row ?? null;
}

export async function updateCustomer(
  db: Database,
  organizationId: number,
  changes: Partial<Omit<CustomerRow, "organizationId" | "customerId" | "updatedAt">>,
) {
  await db
    .update(billingCustomers)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(billingCustomers.organizationId, organizationId));
}

/** The organization's newest subscription that has not ended. */
export async function findLiveSubscription(
  db: Database,
  organizationId: number,
): Promise<SubscriptionRow | null> {
  const [row] = await db
    .select()
    .from(billingSubscriptions)
    .where(
      and(
        eq(billingSubscriptions.organizationId, organizationId),
        notInArray(billingSubscriptions.status, endedStatuses),
      ),
    )
    .orderBy(desc(billingSubscriptions.createdAt))
    .limit(1);
  return row ?? null;
}

/**
 * Writes the subscription's state unless newer state is already kept (a higher `event_at`) or
 * the subscription has ended. True when written.
 */
export async function saveSubscription(db: Database, row: SubscriptionRow): Promise<boolean> {
  const { id, organizationId, createdAt, ...changes } = row;
  const written = await db
    .insert(billingSubscriptions)
    .values(row)
    .onConflictDoUpdate({
      target: billingSubscriptions.id,
      set: changes,
      setWhere: sql`${billingSubscriptions.eventAt} <= ${row.eventAt} and ${billingSubscriptions.status} not in ('canceled', 'incomplete_expired')`,
    })
    .returning({ id: billingSubscriptions.id });
  return written.length > 0;
}

/** Records the event id; false when it was recorded before (the event was already applied). */
export async function insertEvent(db: Database, id: string, type: string): Promise<boolean> {
  const inserted = await db
    .insert(billingEvents)
    .values({ id, type })
    .onConflictDoNothing()
    .returning({ id: billingEvents.id });
  return inserted.length > 0;
}

/** Writes the invoice unless a newer event was applied to it or it already reached a final status. */
export async function saveInvoice(db: Database, row: InvoiceRow): Promise<void> {
  const { id, organizationId, createdAt, ...changes } = row;
  const final = finalInvoiceStatuses.includes(row.status);
  await db
    .insert(billingInvoices)
    .values(row)
    .onConflictDoUpdate({
      target: billingInvoices.id,
      set: changes,
      setWhere: final
        ? sql`${billingInvoices.eventAt} <= ${row.eventAt} or ${billingInvoices.status} not in ('paid', 'void', 'uncollectible')`
        : sql`${billingInvoices.eventAt} <= ${row.eventAt} and ${billingInvoices.status} not in ('paid', 'void', 'uncollectible')`,
    });
}

export async function listInvoices(
  db: Database,
  organizationId: number,
  page: { limit: number; offset: number },
) {
  const where = eq(billingInvoices.organizationId, organizationId);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(billingInvoices)
      .where(where)
      .orderBy(desc(billingInvoices.createdAt), desc(billingInvoices.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(billingInvoices).where(where),
  ]);
  return { count: Number(total?.n ?? 0), rows };
}

export async function findInvoice(db: Database, id: string): Promise<InvoiceRow | null> {
  const [row] = await db.select().from(billingInvoices).where(eq(billingInvoices.id, id));
  return row ?? null;
}
