import { z } from "zod";
import type { Database } from "../../platform/db/client.ts";
import { defineJob } from "../../platform/jobs/define-job.ts";
import { forgetEventsBefore } from "./push.repo.ts";
import type { PushDeliveryService } from "./push-delivery.service.ts";
import { pushDeliveryPayload } from "./push-notify.service.ts";

/** Handled events are remembered long enough to outlast every retry of the event job. */
const handledEventDays = 7;

export function createPushJobs(deps: { db: Database; deliveries: PushDeliveryService }) {
  return {
    /** One push to one subscription; a push service that is down or busy is tried again with backoff. */
    deliver: defineJob({
      name: "push.deliver",
      schema: pushDeliveryPayload,
      retry: { limit: 6, delaySeconds: 10, backoff: true },
      timeoutSeconds: 60,
      batchSize: 8,
      handler: (payload) => deps.deliveries.deliver(payload),
    }),
    forget: defineJob({
      name: "push.forget-events",
      schema: z.object({}),
      retry: { limit: 0 },
      timeoutSeconds: 300,
      handler: async () => {
        await forgetEventsBefore(deps.db, new Date(Date.now() - handledEventDays * 24 * 3600 * 1000));
      },
    }),
  };
}
