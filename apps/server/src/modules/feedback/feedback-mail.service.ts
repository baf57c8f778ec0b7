import type { sdkFeedbackReceipt } from "@tarmac/contracts";
import type { z } from "zod";
import { countInWindow, takeCount } from "../../http/throttle/throttle.ts";
import type { Database } from "../../platform/db/client.ts";
import type { JobQueue } from "../../platform/jobs/job-queue.ts";
import type { MailContent } from "../../platform/mail/mail-content.ts";
import type { Mail } from "../../platform/mail/mail-queue.ts";
import type { ApplicationRow, ApplicationService } from "../application/application.service.ts";
import type { MembershipService } from "../organization/membership.service.ts";
import type { OrganizationService } from "../organization/organization.service.ts";
import { roles } from "../organization/roles.ts";
import type { UserService } from "../users/user.service.ts";
import { digestJob, type FeedbackDigestPayload } from "./feedback.jobs.ts";

/** Reports of one app mailed one by one in an hour; the rest of the hour's go in one digest. */
export const mailedReportsPerHour = 3;
const hourMs = 3600_000;

/** What a report's mail shows: the report's id and the fields the app sent. */
export type MailedReport = { id: number } & Pick<
  z.infer<typeof sdkFeedbackReceipt>,
  "tag" | "description" | "email" | "build_version" | "system_version" | "device_name"
>;

const digestKey = (payload: Omit<FeedbackDigestPayload, "organizationId">) =>
  `feedback-digest:${payload.applicationId}:${payload.windowStartedAt}`;

/**
 * Tells an organization's owners and admins of the feedback its apps send. The keys that send
 * feedback ship inside the apps, so anyone may send a flood of reports: past the first few of an
 * app's hour, each report is only counted, and a job sends one digest when the hour ends. The
 * counts live in the shared throttle table, inside the report's transaction, so any number of
 * processes agree and a report that fails counts for nothing.
 */
export class FeedbackMailService {
  /** The job that mails an hour's withheld reports. */
  readonly digestJob = digestJob((payload) => this.sendDigest(payload));

  constructor(
    private readonly deps: {
      db: Database;
      jobs: JobQueue;
      mail: Mail;
      applications: Pick<ApplicationService, "findApp">;
      membership: MembershipService;
      organizations: Pick<OrganizationService, "getTitle">;
      users: UserService;
      publicUrl: string;
    },
  ) {}

  /** A stored report: mailed when among the app's first of the hour, otherwise counted for the digest. */
  async reportReceived(app: ApplicationRow, report: MailedReport, tx: Database): Promise<void> {
    const hour = await countInWindow(tx, `feedback-mail:${app.id}`, hourMs);
    if (hour.count <= mailedReportsPerHour) return this.mailReport(app, report, tx);
    const payload = {
      organizationId: app.organizationId,
      applicationId: app.id,
      windowStartedAt: hour.windowStartedAt.getTime(),
    };
    // The first report not mailed schedules the digest; the hour's later ones only count.
    const withheld = await countInWindow(tx, digestKey(payload), hourMs);
    if (withheld.count > 1) return;
    const secondsLeft = Math.ceil((payload.windowStartedAt + hourMs - Date.now()) / 1000);
    await this.deps.jobs.send(this.digestJob, payload, { tx, startAfterSeconds: Math.max(1, secondsLeft) });
  }

  /** The digest of an hour's reports not mailed; its count is taken as it is read, so it is told once. */
  async sendDigest(payload: FeedbackDigestPayload): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      const count = await takeCount(tx, digestKey(payload));
      if (count === 0) return;
      const app = await this.deps.applications.findApp(payload.organizationId, payload.applicationId, tx);
      if (!app) return;
      const reports = count === 1 ? "report" : "reports";
      await this.mailOwnersAndAdmins(app, tx, {
        subject: `${app.title}: ${count} more feedback ${reports}`,
        title: `${count} more feedback ${reports}`,
        blocks: [
          `${count} more ${reports} arrived for ${app.title} in the last hour.`,
          `Only the first ${mailedReportsPerHour} reports of an hour are mailed one by one. Read them in Tarmac, on the app's Feedback tab.`,
          { button: "Read the reports", url: `${this.deps.publicUrl}/dashboard/apps/${app.id}` },
        ],
      });
    });
  }

  private async mailReport(app: ApplicationRow, report: MailedReport, tx: Database): Promise<void> {
    const device = [report.device_name, report.system_version].filter(Boolean).join(", ") || "unknown";
    await this.mailOwnersAndAdmins(app, tx, {
      subject: `${app.title}: new ${report.tag} report`,
      title: `New ${report.tag} report for ${app.title}${report.build_version ? ` ${report.build_version}` : ""}`,
      blocks: [
        report.description || "(no description)",
        [`Device: ${device}`, ...(report.email ? [`From: ${report.email}`] : [])].join("\n"),
        { button: "Open it in Tarmac", url: `${this.deps.publicUrl}/dashboard/feedback/${report.id}` },
      ],
    });
  }

  /** Through the organization's mail server when it has one. */
  private async mailOwnersAndAdmins(
    app: ApplicationRow,
    tx: Database,
    mail: Omit<MailContent, "organization">,
  ) {
    const ids = await this.deps.membership.listUserIdsWithRoles(
      app.organizationId,
      [roles.owner, roles.admin],
      tx,
    );
    const people = await this.deps.users.summaries(ids, tx);
    const organization = {
      id: app.organizationId,
      name: await this.deps.organizations.getTitle(app.organizationId, tx),
    };
    for (const person of people.values()) {
      await this.deps.mail.queue({ to: person.email, organization, ...mail }, { tx });
    }
  }
}
