import type { Database } from "../db/client.ts";
import type { JobQueue } from "../jobs/job-queue.ts";
import type { PersonalDataSection } from "../personal-data.ts";
import { createMailJobs, type MailJobs } from "./mail.jobs.ts";
import type { Mailer, MailMessage } from "./mailer.ts";
import { listOutboxTo } from "./outbox.repo.ts";

export interface QueueOptions {
  tx?: Database;
  /** Account mail (activation, invitations, password resets) goes ahead of everything else. */
  urgent?: boolean;
}

/** How modules send mail: always through a job, queued in the caller's transaction when given. */
export interface Mail {
  queue(message: MailMessage, options?: QueueOptions): Promise<string | null>;
}

const urgentPriority = 10;

export class MailQueue implements Mail {
  readonly jobs: MailJobs;

  constructor(private readonly deps: { db: Database; queue: JobQueue; mailer: Mailer }) {
    this.jobs = createMailJobs(deps.mailer);
    deps.queue.register(Object.values(this.jobs));
  }

  get mode(): Mailer["mode"] {
    return this.deps.mailer.mode;
  }

  queue(message: MailMessage, options: QueueOptions = {}): Promise<string | null> {
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
