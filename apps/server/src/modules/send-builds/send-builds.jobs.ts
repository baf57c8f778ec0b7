import { z } from "zod";
import type { Database } from "../../platform/db/client.ts";
import { defineJob } from "../../platform/jobs/define-job.ts";
import type { MailRouter } from "../../platform/mail/organization-mailers.ts";
import { findTesterMail, markTesterMail } from "./send-builds.repo.ts";

const retryLimit = 4;

export const testerMailPayload = z.object({
  mailId: z.number().int().positive(),
  to: z.email(),
  subject: z.string().min(1).max(300),
  text: z.string(),
  html: z.string(),
});

/**
 * One "send to testers" e-mail. The row's state tells the sender what happened: sent, or
 * failed once the retries are used up. A row already sent is not sent again.
 */
export function createSendBuildsJobs(deps: { db: Database; mail: MailRouter }) {
  return {
    send: defineJob({
      name: "tester.mail",
      schema: testerMailPayload,
      retry: { limit: retryLimit, delaySeconds: 30, backoff: true },
      timeoutSeconds: 120,
      batchSize: 10,
      handler: async (payload, context) => {
        const row = await findTesterMail(deps.db, payload.mailId);
        if (!row || row.state === "sent") return;
        try {
          // Through the organization's own mail server when it has one.
          await deps.mail.send(row.organizationId, {
            to: payload.to,
            subject: payload.subject,
            text: payload.text,
            html: payload.html,
          });
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          const final = context.retryCount >= retryLimit;
          await markTesterMail(deps.db, row.id, {
            state: final ? "failed" : "queued",
            error: message.slice(0, 500),
          });
          throw error;
        }
        await markTesterMail(deps.db, row.id, { state: "sent", error: null, sentAt: new Date() });
      },
    }),
  };
}
export type TesterMailJobs = ReturnType<typeof createSendBuildsJobs>;
