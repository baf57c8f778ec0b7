import { randomUUID } from "node:crypto";
import { type WebhookEventType, webhookEventTypes } from "@tarmac/contracts";
import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "../db/client.ts";
import { defineJob } from "../jobs/define-job.ts";
import type { JobQueue } from "../jobs/job-queue.ts";
import { eventThrottles } from "./events.tables.ts";

export type EventType = WebhookEventType;

const eventSchema = z.object({
  /** Also the `webhook-id` of every delivery of the event, so receivers can drop repeats. */
  id: z.string(),
  type: z.enum(webhookEventTypes),
  occurredAt: z.string(),
  organizationId: z.number().int(),
  applicationId: z.number().int().nullable(),
  versionId: z.number().int().nullable(),
  /** Facts that may be gone when the event is handled (a deleted build's version). */
  data: z.record(z.string(), z.unknown()),
});
export type DomainEvent = z.infer<typeof eventSchema>;

export interface PublishInput {
  type: EventType;
  organizationId: number;
  applicationId?: number | null;
  versionId?: number | null;
  data?: Record<string, unknown>;
}

export type EventListener = (event: DomainEvent) => Promise<void>;

/**
 * Domain events for the outside world (webhooks, chat). Publishing queues a job in the caller's
 * transaction, so an event exists exactly when the change it tells of does and survives any
 * process dying; listeners (registered by the modules that deliver) run from that job, and run
 * again when it is retried, so they must be idempotent.
 */
export class DomainEvents {
  private readonly listeners: EventListener[] = [];
  readonly job = defineJob({
    name: "events.dispatch",
    schema: eventSchema,
    retry: { limit: 12, delaySeconds: 15, backoff: true },
    timeoutSeconds: 120,
    batchSize: 4,
    handler: async (event) => {
      for (const listener of this.listeners) await listener(event);
    },
  });

  constructor(private readonly deps: { db: Database; queue: JobQueue }) {
    deps.queue.register([this.job]);
  }

  subscribe(listener: EventListener): void {
    this.listeners.push(listener);
  }

  async publish(input: PublishInput, options: { tx?: Database } = {}): Promise<void> {
    const event: DomainEvent = {
      id: `msg_${randomUUID().replaceAll("-", "")}`,
      type: input.type,
      occurredAt: new Date().toISOString(),
      organizationId: input.organizationId,
      applicationId: input.applicationId ?? null,
      versionId: input.versionId ?? null,
      data: input.data ?? {},
    };
    await this.deps.queue.send(this.job, event, options.tx ? { tx: options.tx } : {});
  }

  /**
   * Publishes unless the same organization published `key` within `intervalSeconds` (a refused
   * upload is retried by CI again and again; one notice an interval is enough). Claimed in one
   * statement, so several processes publish it once between them.
   */
  async publishThrottled(input: PublishInput, key: string, intervalSeconds: number): Promise<boolean> {
    const now = new Date();
    const cutoff = new Date(now.getTime() - intervalSeconds * 1000);
    return this.deps.db.transaction(async (tx) => {
      const claimed = await tx
        .insert(eventThrottles)
        .values({ organizationId: input.organizationId, key, publishedAt: now })
        .onConflictDoUpdate({
          target: [eventThrottles.organizationId, eventThrottles.key],
          set: { publishedAt: now },
          setWhere: sql`${eventThrottles.publishedAt} < ${cutoff}`,
        })
        .returning({ key: eventThrottles.key });
      if (claimed.length === 0) return false;
      await this.publish(input, { tx });
      return true;
    });
  }
}
