import { z } from "zod";
import { defineJob } from "../jobs/define-job.ts";
import type { MailRouter } from "./organization-mailers.ts";

export const mailMessage = z.object({
  to: z.email(),
  subject: z.string().min(1).max(300),
  text: z.string(),
  html: z.string().optional(),
  /** Mail about an organization leaves through its own mail server when it has one. */
  organizationId: z.number().int().positive().optional(),
});

export type MailJobs = ReturnType<typeof createMailJobs>;

/** Mail always leaves through a job: a slow or failing SMTP server never holds up a request, and retries. */
export function createMailJobs(router: MailRouter, onSendError: () => void = () => undefined) {
  return {
    send: defineJob({
      name: "mail.send",
      schema: mailMessage,
      retry: { limit: 5, delaySeconds: 30, backoff: true },
      timeoutSeconds: 120,
      batchSize: 10,
      handler: async ({ organizationId, ...message }) => {
        try {
          await router.send(organizationId, message);
        } catch (error) {
          onSendError();
          throw error;
        }
      },
    }),
  };
}
