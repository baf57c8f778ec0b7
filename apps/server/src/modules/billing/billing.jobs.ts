import { z } from "zod";
import { defineJob } from "../../platform/jobs/define-job.ts";

const graceOf = z.object({
  organizationId: z.number().int().positive(),
  /** The grace period the job belongs to: a job of an earlier one finds it over and does nothing. */
  graceEndsAt: z.string(),
});
export type GraceRef = z.infer<typeof graceOf>;

/**
 * A failed payment's grace period: a reminder two days before its end, then its end. Both are
 * queued when the grace period starts, in that transaction; each checks that its grace period
 * is still the one running, so a payment in between (or a second failure) makes them no-ops.
 */
export function createBillingJobs(handlers: {
  remind: (grace: GraceRef) => Promise<void>;
  end: (grace: GraceRef) => Promise<void>;
}) {
  return {
    graceReminder: defineJob({
      name: "billing.grace-reminder",
      schema: graceOf,
      retry: { limit: 5, delaySeconds: 60 },
      handler: (grace) => handlers.remind(grace),
    }),
    graceEnd: defineJob({
      name: "billing.grace-end",
      schema: graceOf,
      retry: { limit: 10, delaySeconds: 60 },
      handler: (grace) => handlers.end(grace),
    }),
  };
}

export type BillingJobs = ReturnType<typeof createBillingJobs>;
