/** What the "send to testers" dialog offers to choose from. */
import type { TesterRecipients } from "@tarmac/contracts";
import { AppError } from "../../http/errors.ts";
import type { Database } from "../../platform/db/client.ts";
import type { ApplicationRow } from "../application/application.service.ts";
import type { ReleaseService } from "../application/release.service.ts";
import { presentAppMail, type TesterService } from "../tester/tester.service.ts";
import type { RecipientMembers } from "./recipient-members.ts";
import { listBatches } from "./send-builds.repo.ts";

export class RecipientPickerService {
  constructor(
    private readonly deps: {
      db: Database;
      testers: TesterService;
      releases: ReleaseService;
      members: RecipientMembers;
    },
  ) {}

  /** What the send dialog offers: builds per platform, groups, members, saved addresses, past batches. */
  async recipients(userId: number, appId: number, versionId?: number): Promise<TesterRecipients> {
    const { db } = this.deps;
    const app = await this.deps.testers.getManagedApp(userId, appId);
    const projectApps = await this.visibleProjectApps(userId, app);
    const recent = await this.deps.releases.recentVersions(
      projectApps.map((a) => a.id),
      20,
    );
    const [grouped, members, mails, batches] = await Promise.all([
      this.deps.testers.groupsWithTesters(app.id),
      this.deps.members.readersOf(app),
      this.deps.testers.findAppMails(app.id),
      listBatches(db, app.id, 10),
    ]);
    const selected = versionId
      ? (await this.deps.releases.findVersions(app.organizationId, [versionId])).get(versionId)
      : undefined;
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
      users: members.map((m) => ({
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
    const all = await this.deps.releases.listProjectApps(app.organizationId, app.projectId);
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
