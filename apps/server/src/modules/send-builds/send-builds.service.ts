/**
 * "Send to testers": e-mails install links of chosen builds to testers, organization members and
 * saved addresses of an app. One tester_mails row and one mail job per distinct address, written
 * in one transaction; the organization's mail rate is kept by delaying jobs, never by dropping.
 */

import { randomUUID } from "node:crypto";
import {
  appTypeWords,
  type SendToTestersInput,
  type SendToTestersResult,
  type TesterMailPreview,
} from "@tarmac/contracts";
import { AppError, type FieldErrors } from "../../http/errors.ts";
import { enforceRateLimit } from "../../http/throttle/throttle.ts";
import type { Database } from "../../platform/db/client.ts";
import type { DomainEvents } from "../../platform/events/domain-events.ts";
import type { JobQueue } from "../../platform/jobs/job-queue.ts";
import type { MailRouter } from "../../platform/mail/organization-mailers.ts";
import { type RenderedMail, renderMail } from "../../platform/mail/render-mail.ts";
import type { ApplicationRow } from "../application/application.service.ts";
import type { CatalogLocks } from "../application/catalog-locks.ts";
import type { ReleaseService } from "../application/release.service.ts";
import type { DistributionService } from "../distribution/distribution.service.ts";
import { installPageUrl } from "../distribution/install-links.ts";
import type { MembershipService } from "../organization/membership.service.ts";
import type { OrganizationService } from "../organization/organization.service.ts";
import type { TesterService } from "../tester/tester.service.ts";
import { displayName, type UserService } from "../users/user.service.ts";
import type { RecipientMembers } from "./recipient-members.ts";
import type { TesterMailJobs } from "./send-builds.jobs.ts";
import { countBusyMailSlots, insertTesterMails } from "./send-builds.repo.ts";
import { composeTesterMail, type OfferedBuild } from "./tester-mail.ts";

/** The payload field that names the version for each app type (0 Android ... 3 macOS). */
const versionFields = ["apk_version", "ios_version", "msi_version", "dmg_version"] as const;
const versionFieldOfType = versionFields;

export interface SendBuildsDeps {
  db: Database;
  jobs: JobQueue;
  mailJobs: TesterMailJobs;
  releases: ReleaseService;
  catalogLocks: CatalogLocks;
  testers: TesterService;
  membership: MembershipService;
  organizations: Pick<OrganizationService, "getTitle">;
  users: Pick<UserService, "findById">;
  members: RecipientMembers;
  publicUrl: string;
  /** The distribution module's app-level install links (the links the mails carry). */
  appLinks: Pick<DistributionService, "ensureAppLink">;
  mailsPerMinute: number;
  sendsPerMinutePerUser?: number;
  /** Puts the organization's logo in the mail, and in its preview. */
  mail: Pick<MailRouter, "brand" | "inlinedForPreview">;
  events: DomainEvents;
}

interface Plan {
  builds: { app: ApplicationRow; versionId: number; version: string; buildNumber: string }[];
}

export class SendBuildsService {
  constructor(private readonly deps: SendBuildsDeps) {}

  async send(userId: number, appId: number, input: SendToTestersInput): Promise<SendToTestersResult> {
    const { db, jobs, mailJobs } = this.deps;
    const app = await this.deps.testers.getManagedApp(userId, appId);
    await enforceRateLimit(db, `tester-send:${userId}`, this.deps.sendsPerMinutePerUser ?? 10, 60_000);
    const plan = await this.resolveBuilds(userId, app, input);
    const recipients = await this.resolveRecipients(app, input);
    if (recipients.length === 0) {
      throw AppError.validation({ non_field_errors: ["Choose at least one recipient."] });
    }
    const batchId = randomUUID();
    await db.transaction(async (tx) => {
      // One send per organization at a time: the mail budget and the install links are shared.
      await this.lockForSending(app, plan, tx);
      const mail = await this.compose(tx, userId, app, plan, input);
      const rows = await insertTesterMails(
        tx,
        recipients.map((email) => ({
          organizationId: app.organizationId,
          applicationId: app.id,
          batchId,
          email,
          sentBy: userId,
        })),
      );
      // Rows just inserted are queued, so they are part of the count: subtract them back out.
      const busy = (await countBusyMailSlots(tx, app.organizationId, new Date())) - rows.length;
      for (const [index, row] of rows.entries()) {
        const minute = Math.floor((busy + index) / this.deps.mailsPerMinute);
        await jobs.send(
          mailJobs.send,
          { mailId: row.id, to: row.email, ...mail },
          { tx, ...(minute > 0 ? { startAfterSeconds: minute * 60 } : {}) },
        );
      }
      for (const build of plan.builds) {
        await this.deps.events.publish(
          {
            type: "build.sent_to_testers",
            organizationId: build.app.organizationId,
            applicationId: build.app.id,
            versionId: build.versionId,
            data: { batch_id: batchId, recipients: rows.length, sent_by: userId },
          },
          { tx },
        );
      }
    });
    return { batch_id: batchId, recipients: recipients.length };
  }

  /** The mail as it would be sent, without sending it. */
  async preview(userId: number, appId: number, input: SendToTestersInput): Promise<TesterMailPreview> {
    const app = await this.deps.testers.getManagedApp(userId, appId);
    const plan = await this.resolveBuilds(userId, app, input);
    const mail = await this.deps.db.transaction(async (tx) => {
      await this.lockForSending(app, plan, tx);
      return this.compose(tx, userId, app, plan, input);
    });
    return { ...mail, html: await this.deps.mail.inlinedForPreview(app.organizationId, mail.html) };
  }

  /** The offered apps (their install links may be made now), then the organization: the common order. */
  private async lockForSending(app: ApplicationRow, plan: Plan, tx: Database): Promise<void> {
    await this.deps.catalogLocks.rows({ appIds: plan.builds.map((build) => build.app.id) }, "update", tx);
    await this.deps.membership.lockOrganization(app.organizationId, tx);
  }

  /**
   * The build offered for each chosen platform: the version named for its type, else the app's
   * current build. Every app must be of this project and managed by the caller.
   */
  private async resolveBuilds(userId: number, app: ApplicationRow, input: SendToTestersInput): Promise<Plan> {
    const errors: FieldErrors = {};
    const projectApps = new Map(
      (await this.deps.releases.listProjectApps(app.organizationId, app.projectId)).map((a) => [a.id, a]),
    );
    const named = versionFields
      .map((field) => ({ field, id: input[field] ?? null }))
      .filter((entry): entry is { field: (typeof versionFields)[number]; id: number } => entry.id !== null);
    const versionRows = await this.deps.releases.findVersions(
      app.organizationId,
      named.map((n) => n.id),
    );
    const chosen = new Set(input.app2os);
    for (const { field, id } of named) {
      const row = versionRows.get(id);
      const owner = row ? projectApps.get(row.applicationId) : undefined;
      if (!row || !owner || versionFieldOfType[owner.appType] !== field || row.state !== "ready") {
        errors[field] = [`Version ${id} is not a finished build of this project for this platform.`];
      } else chosen.add(owner.id);
    }
    if (chosen.size === 0) chosen.add(app.id);

    const builds: Plan["builds"] = [];
    const currentIds: number[] = [];
    for (const id of chosen) {
      const target = projectApps.get(id);
      if (!target || !(await this.manages(userId, id))) {
        errors.app2os = [...(errors.app2os ?? []), `App ${id} is not an app of this project.`];
        continue;
      }
      const field = versionFieldOfType[target.appType];
      const given = named.find((n) => n.field === field && versionRows.get(n.id)?.applicationId === id);
      if (!given && target.currentVersionId) currentIds.push(target.currentVersionId);
      if (!given && !target.currentVersionId) {
        errors.app2os = [...(errors.app2os ?? []), `App ${id} has no build to offer yet.`];
      }
    }
    const current = await this.deps.releases.findVersions(app.organizationId, currentIds);
    if (Object.keys(errors).length > 0) throw AppError.validation(errors);
    for (const id of chosen) {
      const target = projectApps.get(id) as ApplicationRow;
      const field = versionFieldOfType[target.appType];
      const given = named.find((n) => n.field === field && versionRows.get(n.id)?.applicationId === id);
      const row = given ? versionRows.get(given.id) : current.get(target.currentVersionId ?? 0);
      if (!row) continue;
      builds.push({ app: target, versionId: row.id, version: row.version, buildNumber: row.buildNumber });
    }
    return { builds };
  }

  private async manages(userId: number, appId: number): Promise<boolean> {
    try {
      await this.deps.testers.getManagedApp(userId, appId);
      return true;
    } catch (error) {
      if (error instanceof AppError) return false;
      throw error;
    }
  }

  /** Distinct lower-cased addresses; every id must belong to this app (or, for users, may read it). */
  private async resolveRecipients(app: ApplicationRow, input: SendToTestersInput): Promise<string[]> {
    const errors: FieldErrors = {};
    const unknown = (ids: number[], found: { id: number }[]) => {
      const known = new Set(found.map((row) => row.id));
      return [...new Set(ids)].filter((id) => !known.has(id));
    };
    const testerRows = await this.deps.testers.findTesters(app.id, input.testers_id);
    const mailRows = await this.deps.testers.findAppMails(app.id, input.emails_id);
    const memberRows = await this.deps.members.readersOf(app, input.users_id);
    const missing = {
      testers_id: unknown(input.testers_id, testerRows),
      emails_id: unknown(input.emails_id, mailRows),
      users_id: unknown(
        input.users_id,
        memberRows.map((m) => ({ id: m.userId })),
      ),
    };
    for (const [field, ids] of Object.entries(missing)) {
      if (ids.length > 0) errors[field] = [`Not a recipient of this app: ${ids.join(", ")}.`];
    }
    if (Object.keys(errors).length > 0) throw AppError.validation(errors);
    const addresses = [
      ...testerRows.map((row) => row.email),
      ...memberRows.map((row) => row.email),
      ...mailRows.map((row) => row.email),
    ].map((email) => email.trim().toLowerCase());
    return [...new Set(addresses)];
  }

  /** The mail exactly as it is sent: the preview shows what this returns, and the jobs send it. */
  private async compose(
    tx: Database,
    userId: number,
    app: ApplicationRow,
    plan: Plan,
    input: SendToTestersInput,
  ): Promise<RenderedMail> {
    const builds: OfferedBuild[] = [];
    for (const build of plan.builds) {
      const link = await this.deps.appLinks.ensureAppLink(build.app, tx);
      builds.push({
        platform: appTypeWords[build.app.appType] ?? "android",
        appTitle: build.app.title,
        version: build.version,
        buildNumber: build.buildNumber,
        url: installPageUrl(this.deps.publicUrl, link.key),
      });
    }
    const sender = input.is_system ? null : await this.deps.users.findById(userId, tx);
    const senderName = sender ? displayName(sender) : null;
    const organization = {
      id: app.organizationId,
      name: await this.deps.organizations.getTitle(app.organizationId, tx),
    };
    return renderMail(
      await this.deps.mail.brand(
        composeTesterMail({
          organization,
          appTitle: app.title,
          senderName,
          builds,
          whatsNew: input.whats_new.trim(),
          showTutorial: input.is_show_tutorial,
          inStore: input.is_integrated_to_store,
        }),
        tx,
      ),
    );
  }
}
