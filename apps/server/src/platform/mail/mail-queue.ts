import type { Database } from "../db/client.ts";
import type { JobQueue } from "../jobs/job-queue.ts";
import type { PersonalDataSection } from "../personal-data.ts";
import { createMailJobs, type MailJobs } from "./mail.jobs.ts";
import type { Mailer, MailMessage } from "./mailer.ts";
import { MailRouter } from "./organization-mailers.ts";
import { listOutboxTo } from "./outbox.repo.ts";

export interface QueueOptions {
  tx?: Database;
  /** Account mail (activation, invitations, password resets) goes ahead of everything else. */
  urgent?: boolean;
}

/** How modules send mail: always through a job, queued in the caller's transaction when given. */
export interface Mail {
  /** `organizationId`: the mail is about that organization (its own mail server sends it). */
  queue(message: MailMessage & { organizationId?: number }, options?: QueueOptions): Promise<string | null>;
}

const urgentPriority = 10;

export class MailQueue implements Mail {
  readonly jobs: MailJobs;
  /** Where each message leaves from; organizations' own servers are installed on it. */
  readonly router: MailRouter;

  constructor(private readonly deps: { db: Database; queue: JobQueue; mailer: Mailer }) {
    this.router = new MailRouter(deps.mailer);
    this.jobs = createMailJobs(this.router);
    deps.queue.register(Object.values(this.jobs));
  }

  get mode(): Mailer["mode"] {
    return this.deps.mailer.mode;
  }

  queue(
    message: MailMessage & { organizationId?: number },
    options: QueueOptions = {},
  ): Promise<string | null> {
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
