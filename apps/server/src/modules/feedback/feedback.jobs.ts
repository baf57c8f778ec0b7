import { z } from "zod";
import { defineJob } from "../../platform/jobs/define-job.ts";

/** The hour of one app whose reports were not all mailed one by one. */
export const feedbackDigestPayload = z.object({
  organizationId: z.number().int().positive(),
  applicationId: z.number().int().positive(),
  /** The hour's start (epoch milliseconds), which names its count of reports not mailed. */
  windowStartedAt: z.number().int(),
});
export type FeedbackDigestPayload = z.infer<typeof feedbackDigestPayload>;

/**
 * At the end of an app's hour, one mail for the reports that were not mailed one by one. The
 * feedback mail service both schedules it and sends the digest, so it binds the sending.
 */
export function digestJob(sendDigest: (payload: FeedbackDigestPayload) => Promise<void>) {
  return defineJob({
    name: "feedback.mail-digest",
    schema: feedbackDigestPayload,
    retry: { limit: 5, delaySeconds: 60, backoff: true },
    timeoutSeconds: 120,
    handler: sendDigest,
  });
}
