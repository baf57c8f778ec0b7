import type { Database } from "../../platform/db/client.ts";
import type { JobQueue } from "../../platform/jobs/job-queue.ts";
import type { createMailJobs } from "../../platform/mail/mail.jobs.ts";
import type { MailContent } from "./account-mail.ts";
import type { AuthTokenService } from "./auth-token.service.ts";

/** What the account services share: the database, the job queue for mail, and the token service. */
export interface AccountDeps {
  db: Database;
  jobs: JobQueue;
  mailJobs: ReturnType<typeof createMailJobs>;
  tokens: AuthTokenService;
  publicUrl: string;
}

/** Queues an e-mail in the caller's transaction, so it goes out exactly when the change commits. */
export async function queueMail(deps: AccountDeps, tx: Database, to: string, mail: MailContent) {
  await deps.jobs.send(deps.mailJobs.send, { to, ...mail }, { tx });
}

export const dayMs = 24 * 3600 * 1000;
export const codeLifetimeMs = {
  activation: 7 * dayMs,
  invitation: 14 * dayMs,
  password_reset: 3600 * 1000,
} as const;
