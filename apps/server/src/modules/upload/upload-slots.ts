import { and, count, eq, gt, lt } from "drizzle-orm";
import { ThrottleError } from "../../http/throttle/throttle.ts";
import type { Database } from "../../platform/db/client.ts";
import { uploadSlots } from "./upload.tables.ts";

/** A slot lasts this long past its last sign of life; a running upload renews it. */
const slotLeaseMs = 3 * 60 * 1000;
const renewEveryMs = 60 * 1000;

export interface UploadSlot {
  release(): Promise<void>;
}

/**
 * Limits uploads running at once per person and per client address, in the database so the
 * limit holds across processes. Taking a slot inserts first and counts after: two racing
 * uploads may both be refused, never both let past the limit.
 */
export class UploadSlots {
  constructor(private readonly deps: { db: Database; perUser: number; perAddress: number }) {}

  async acquire(userId: number | null, address: string): Promise<UploadSlot> {
    const { db } = this.deps;
    const now = new Date();
    const [slot] = await db
      .insert(uploadSlots)
      .values({ userId, address, expiresAt: new Date(now.getTime() + slotLeaseMs) })
      .returning({ id: uploadSlots.id });
    if (!slot) throw new Error("upload slot insert returned nothing");
    const live = gt(uploadSlots.expiresAt, now);
    const [byAddress] = await db
      .select({ value: count() })
      .from(uploadSlots)
      .where(and(eq(uploadSlots.address, address), live));
    const [byUser] =
      userId === null
        ? [{ value: 0 }]
        : await db
            .select({ value: count() })
            .from(uploadSlots)
            .where(and(eq(uploadSlots.userId, userId), live));
    if ((byAddress?.value ?? 0) > this.deps.perAddress || (byUser?.value ?? 0) > this.deps.perUser) {
      await db.delete(uploadSlots).where(eq(uploadSlots.id, slot.id));
      throw new ThrottleError(30, "Too many uploads at once. Wait for one to finish, then try again.");
    }
    const renew = setInterval(() => {
      db.update(uploadSlots)
        .set({ expiresAt: new Date(Date.now() + slotLeaseMs) })
        .where(eq(uploadSlots.id, slot.id))
        .catch(() => undefined);
    }, renewEveryMs);
    renew.unref();
    return {
      release: async () => {
        clearInterval(renew);
        await db.delete(uploadSlots).where(eq(uploadSlots.id, slot.id));
      },
    };
  }

  /** Slots a crashed process left behind. */
  async deleteExpired(now = new Date()): Promise<void> {
    await this.deps.db.delete(uploadSlots).where(lt(uploadSlots.expiresAt, now));
  }

  /** Runs `work` holding a slot, released however it ends. */
  async withSlot<T>(userId: number | null, address: string, work: () => Promise<T>): Promise<T> {
    const slot = await this.acquire(userId, address);
    try {
      return await work();
    } finally {
      await slot.release().catch(() => undefined);
    }
  }
}
