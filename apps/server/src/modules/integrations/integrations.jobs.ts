import { z } from "zod";
import type { Database } from "../../platform/db/client.ts";
import { defineJob } from "../../platform/jobs/define-job.ts";
import { deleteDeliveriesBefore } from "./delivery.repo.ts";
import type { DeliveryService } from "./delivery.service.ts";

/** How long the delivery log keeps a delivery. */
const deliveryLogDays = 30;

/**
 * One attempt of one delivery. Failures are recorded and rescheduled by the attempt itself, so
 * the job fails only when the database does; pg-boss then runs it again. The delivery service
 * both sends it and runs it, so it binds the attempt when it is built.
 */
export function deliverJob(attempt: (deliveryId: number) => Promise<unknown>) {
  return defineJob({
    name: "integrations.deliver",
    schema: z.object({ deliveryId: z.number().int() }),
    retry: { limit: 5, delaySeconds: 30, backoff: true },
    timeoutSeconds: 120,
    batchSize: 8,
    handler: async ({ deliveryId }) => {
      await attempt(deliveryId);
    },
  });
}

export function createIntegrationJobs(deps: { db: Database; deliveries: DeliveryService }) {
  return {
    deliver: deps.deliveries.deliverJob,
    /** Wakes deliveries whose process died mid-attempt, and forgets deliveries past the log's age. */
    redrive: defineJob({
      name: "integrations.redrive",
      schema: z.object({}),
      retry: { limit: 0 },
      timeoutSeconds: 300,
      handler: async () => {
        await deps.deliveries.redrive();
        await deleteDeliveriesBefore(deps.db, new Date(Date.now() - deliveryLogDays * 24 * 3600 * 1000));
      },
    }),
  };
}
