import { and, desc, eq, gt, isNull, lt, sql } from "drizzle-orm";
import type { Database } from "../../platform/db/client.ts";
import { devices, udidEnrollments } from "./distribution.tables.ts";

export type DeviceRow = typeof devices.$inferSelect;
export type EnrollmentRow = typeof udidEnrollments.$inferSelect;

export async function insertEnrollment(
  db: Database,
  values: { challengeHash: string; userId: number | null; expiresAt: Date },
): Promise<void> {
  await db.insert(udidEnrollments).values(values);
}

export async function findOpenEnrollment(
  db: Database,
  challengeHash: string,
  now: Date,
): Promise<EnrollmentRow | null> {
  const [row] = await db
    .select()
    .from(udidEnrollments)
    .where(
      and(
        eq(udidEnrollments.challengeHash, challengeHash),
        isNull(udidEnrollments.completedAt),
        gt(udidEnrollments.expiresAt, now),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** Enrollments past their hour are useless; the rows go a day later. */
export async function deleteEnrollmentsExpiredBefore(db: Database, before: Date): Promise<number> {
  const rows = await db
    .delete(udidEnrollments)
    .where(lt(udidEnrollments.expiresAt, before))
    .returning({ id: udidEnrollments.id });
  return rows.length;
}

/** Closes the enrollment unless another reply did first; false when it was already used. */
export async function completeEnrollment(db: Database, id: number, deviceId: number): Promise<boolean> {
  const rows = await db
    .update(udidEnrollments)
    .set({ completedAt: new Date(), deviceId })
    .where(and(eq(udidEnrollments.id, id), isNull(udidEnrollments.completedAt)))
    .returning({ id: udidEnrollments.id });
  return rows.length === 1;
}

/** The person's record of the device (or the anonymous one), updated with what the device sent. */
export async function saveDevice(
  db: Database,
  values: Pick<DeviceRow, "userId" | "udid" | "product" | "osVersion" | "serial" | "imei">,
): Promise<DeviceRow> {
  const owner = values.userId === null ? isNull(devices.userId) : eq(devices.userId, values.userId);
  const [existing] = await db
    .select()
    .from(devices)
    .where(and(owner, sql`lower(${devices.udid}) = lower(${values.udid})`))
    .limit(1);
  if (existing) {
    const [updated] = await db
      .update(devices)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(devices.id, existing.id))
      .returning();
    if (updated) return updated;
  }
  const [row] = await db.insert(devices).values(values).returning();
  if (!row) throw new Error("device insert failed");
  return row;
}

export async function listUserDevices(db: Database, userId: number): Promise<DeviceRow[]> {
  return db.select().from(devices).where(eq(devices.userId, userId)).orderBy(desc(devices.updatedAt));
}
