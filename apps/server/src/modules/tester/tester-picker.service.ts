/** What the "send to testers" dialog offers to choose from. */
import type { TesterRecipients } from "@tarmac/contracts";
import { AppError } from "../../http/errors.ts";
import type { Database } from "../../platform/db/client.ts";
import type { ApplicationRow } from "../application/application.repo.ts";
import { listAppMails } from "./tester.repo.ts";
import { presentAppMail, type TesterService } from "./tester.service.ts";
import {
  findVersionsOfOrganization,
  listBatches,
  listMembersWithProjectAccess,
  listProjectApps,
  listRecentVersions,
} from "./tester-send.repo.ts";
import { mayRead } from "./tester-send.service.ts";

export class TesterPickerService {
  constructor(private readonly deps: { db: Database; testers: TesterService }) {}

  /** What the send dialog offers: builds per platform, groups, members, saved addresses, past batches. */
  async recipients(userId: number, appId: number, versionId?: number): Promise<TesterRecipients> {
    const { db } = this.deps;
    const app = await this.deps.testers.getManagedApp(userId, appId);
    const projectApps = await this.visibleProjectApps(userId, app);
    const recent = await listRecentVersions(
      db,
      projectApps.map((a) => a.id),
      20,
    );
    const [grouped, members, mails, batches] = await Promise.all([
      this.deps.testers.groupsWithTesters(app.id),
      listMembersWithProjectAccess(db, app.organizationId, app.projectId),
      listAppMails(db, app.id),
      listBatches(db, app.id, 10),
    ]);
    const [selected] = versionId ? await findVersionsOfOrganization(db, app.organizationId, [versionId]) : [];
    return {
      app: app.id,
      version: selected && selected.applicationId === app.id ? selected.id : null,
      platforms: projectApps.map((a) => ({
        app: a.id,
        app_type: a.appType,
        title: a.title,
        versions: recent
          .filter((v) => v.applicationId === a.id)
          .map((v) => ({
            id: v.id,
            version: v.version,
            build_version_number: v.buildNumber,
            date: v.createdAt.toISOString(),
          })),
      })),
      groups: grouped.groups,
      testers: grouped.ungrouped,
      users: members
        .filter((m) => mayRead(m, app))
        .map((m) => ({
          id: m.userId,
          email: m.email,
          first_name: m.firstName,
          last_name: m.lastName,
          role: m.role,
        })),
      app_mails: mails.map(presentAppMail),
      batches: batches.map((b) => ({
        batch_id: b.batchId,
        created_at: b.createdAt.toISOString(),
        sent_by: b.sentBy === null ? null : Number(b.sentBy),
        total: b.total,
        queued: b.queued,
        sent: b.sent,
        failed: b.failed,
      })),
    };
  }

  /** The project's apps in the app's environment that the caller manages testers of. */
  private async visibleProjectApps(userId: number, app: ApplicationRow) {
    const all = await listProjectApps(this.deps.db, app.organizationId, app.projectId);
    const visible: ApplicationRow[] = [];
    for (const candidate of all) {
      if (candidate.id !== app.id && candidate.environment !== app.environment) continue;
      try {
        await this.deps.testers.getManagedApp(userId, candidate.id);
        visible.push(candidate);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
      }
    }
    return visible;
  }
}
