import type { Database } from "../db/client.ts";
import type { JobQueue } from "../jobs/job-queue.ts";
import type { PersonalDataSection } from "../personal-data.ts";
import { createMailJobs, type MailJobs } from "./mail.jobs.ts";
import type { MailContent } from "./mail-content.ts";
import type { Mailer } from "./mailer.ts";
import { MailRouter } from "./organization-mailers.ts";
import { listOutboxTo } from "./outbox.repo.ts";
import { renderMail } from "./render-mail.ts";

export interface QueueOptions {
  tx?: Database;
  /** Account mail (activation, invitations, password resets) goes ahead of everything else. */
  urgent?: boolean;
}

/**
 * How modules send mail: always through a job, queued in the caller's transaction when given.
 * Every mail is rendered in the one layout, as plain text and HTML; a mail in an organization's
 * name leaves through that organization's own mail server when it has one.
 */
export interface Mail {
  queue(message: { to: string } & MailContent, options?: QueueOptions): Promise<string | null>;
}

const urgentPriority = 10;

export class MailQueue implements Mail {
  readonly jobs: MailJobs;
  /** Where each message leaves from; organizations' own servers are installed on it. */
  readonly router: MailRouter;

  /** `onSendError` hears of each attempt a mail server refused or did not answer. */
  constructor(
    private readonly deps: { db: Database; queue: JobQueue; mailer: Mailer; onSendError?: () => void },
  ) {
    this.router = new MailRouter(deps.mailer);
    this.jobs = createMailJobs(this.router, deps.onSendError);
    deps.queue.register(Object.values(this.jobs));
  }

  get mode(): Mailer["mode"] {
    return this.deps.mailer.mode;
  }

  async queue(
    { to, ...content }: { to: string } & MailContent,
    options: QueueOptions = {},
  ): Promise<string | null> {
    const organizationId = content.organization?.id;
    const message = {
      to,
      ...(await renderMail(await this.router.brand(content, options.tx))),
      ...(organizationId ? { organizationId } : {}),
    };
    return this.deps.queue.send(this.jobs.send, message, {
      ...(options.tx ? { tx: options.tx } : {}),
      ...(options.urgent ? { priority: urgentPriority } : {}),
    });
  }

  /** Mail kept in the dev outbox for this person (a personal data export section). */
  readonly personalData: PersonalDataSection = {
    name: "mail",
    load: async (person) =>
      (await listOutboxTo(this.deps.db, person.email)).map((row) => ({
        subject: row.subject,
        text: row.textBody,
        html: row.htmlBody,
        created_at: row.createdAt.toISOString(),
      })),
  };
}
