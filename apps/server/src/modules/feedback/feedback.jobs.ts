import { defineJob } from "../../platform/jobs/define-job.ts";
import { type FeedbackMailService, feedbackDigestPayload } from "./feedback-mail.service.ts";

export function createFeedbackJobs(deps: { mails: FeedbackMailService }) {
  return {
    /** At the end of an app's hour, one mail for the reports that were not mailed one by one. */
    digest: defineJob({
      name: "feedback.mail-digest",
      schema: feedbackDigestPayload,
      retry: { limit: 5, delaySeconds: 60, backoff: true },
      timeoutSeconds: 120,
      handler: (payload) => deps.mails.sendDigest(payload),
    }),
  };
}
