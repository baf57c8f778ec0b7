import {
  type FeedbackItem,
  type FeedbackListQuery,
  type FeedbackPatch,
  feedbackStatuses,
  openFeedbackFilter,
} from "@tarmac/contracts";
import { AppError } from "../../http/errors.ts";
import type { PageParams } from "../../http/pagination.ts";
import type { Database } from "../../platform/db/client.ts";
import type { RoutedStorage } from "../../platform/storage/routed-storage.ts";
import { canOnApp } from "../application/application.policy.ts";
import type { ApplicationRow, ApplicationService } from "../application/application.service.ts";
import type { ReleaseService } from "../application/release.service.ts";
import type { MembershipService } from "../organization/membership.service.ts";
import { isAdminRole } from "../organization/roles.ts";
import type { UserService } from "../users/user.service.ts";
import {
  type FeedbackFilter,
  type FeedbackRow,
  findFeedback,
  listFeedback,
  orderingOf,
  updateFeedback,
} from "./feedback.repo.ts";

/** Screenshot links last as long as a triage session looks at the page. */
const imageLinkSeconds = 15 * 60;

export interface TriageDeps {
  db: Database;
  applications: ApplicationService;
  releases: ReleaseService;
  membership: MembershipService;
  users: UserService;
  storage: RoutedStorage;
}

/** Reading and triaging reports: an app's (who sees the app) or the organization's inbox (admins). */
export class FeedbackTriageService {
  constructor(private readonly deps: TriageDeps) {}

  async list(userId: number, query: FeedbackListQuery, page: PageParams) {
    let filter: FeedbackFilter;
    let canTriage: boolean;
    if (query.app_id !== undefined) {
      const { app, member, access } = await this.deps.applications.getAccessibleApp(
        userId,
        query.app_id,
        "feedback:read",
      );
      filter = { organizationId: app.organizationId, applicationId: app.id };
      canTriage = canOnApp(member.role, "feedback:triage", access);
    } else if (query.app__organization !== undefined) {
      const member = await this.deps.membership.getMembership(userId, query.app__organization);
      if (!isAdminRole(member.role)) throw AppError.forbidden();
      filter = { organizationId: query.app__organization };
      canTriage = true;
    } else {
      throw AppError.validation({ app_id: ["Give app_id or app__organization."] });
    }
    if (query.status !== undefined) {
      filter.statuses =
        query.status === openFeedbackFilter
          ? [feedbackStatuses.new, feedbackStatuses.inProgress]
          : [query.status];
    }
    if (query.tag) filter.tag = query.tag;
    if (query.build_version) filter.buildVersion = query.build_version;
    if (query.device) filter.device = query.device;
    const found = await listFeedback(this.deps.db, filter, {
      limit: page.pageSize,
      offset: page.offset,
      order: orderingOf(query.ordering),
    });
    return { count: found.count, results: await this.present(found.rows, canTriage) };
  }

  async get(userId: number, id: number): Promise<FeedbackItem> {
    const { row, canTriage } = await this.accessible(userId, id, "feedback:read");
    return (await this.present([row], canTriage))[0] as FeedbackItem;
  }

  async patch(userId: number, id: number, input: FeedbackPatch): Promise<FeedbackItem> {
    const { row } = await this.accessible(userId, id, "feedback:triage");
    if (input.assignee !== undefined && input.assignee !== null) {
      const assignee = await this.deps.membership.findMemberByUser(row.organizationId, input.assignee);
      if (!assignee)
        throw AppError.validation({ assignee: ["This person is not a member of the organization."] });
    }
    const updated = await updateFeedback(this.deps.db, row.id, {
      ...(input.status !== undefined ? { status: input.status } : {}),
      ...(input.assignee !== undefined ? { assigneeId: input.assignee } : {}),
      ...(input.internal_note !== undefined ? { internalNote: input.internal_note } : {}),
    });
    if (!updated) throw AppError.notFound();
    return (await this.present([updated], true))[0] as FeedbackItem;
  }

  private async accessible(userId: number, id: number, action: "feedback:read" | "feedback:triage") {
    const row = await findFeedback(this.deps.db, id);
    if (!row) throw AppError.notFound();
    const { member, access } = await this.deps.applications.getAccessibleApp(
      userId,
      row.applicationId,
      action,
    );
    return { row, canTriage: canOnApp(member.role, "feedback:triage", access) };
  }

  private async present(rows: FeedbackRow[], canTriage: boolean): Promise<FeedbackItem[]> {
    if (rows.length === 0) return [];
    const organizationId = (rows[0] as FeedbackRow).organizationId;
    const apps = new Map<number, ApplicationRow | null>();
    for (const appId of new Set(rows.map((row) => row.applicationId))) {
      apps.set(appId, await this.deps.applications.findApp(organizationId, appId));
    }
    const versions = await this.deps.releases.findVersions(
      organizationId,
      rows.flatMap((row) => (row.versionId === null ? [] : [row.versionId])),
    );
    const people = await this.deps.users.summaries(
      rows.flatMap((row) => (row.assigneeId === null ? [] : [row.assigneeId])),
    );
    return Promise.all(
      rows.map(async (row) => {
        const app = apps.get(row.applicationId);
        const version = row.versionId === null ? undefined : versions.get(row.versionId);
        const assignee = row.assigneeId === null ? undefined : people.get(row.assigneeId);
        return {
          id: row.id,
          app: row.applicationId,
          app_title: app?.title ?? "",
          app_type: app?.appType ?? 0,
          organization: row.organizationId,
          status: row.status,
          tag: row.tag as FeedbackItem["tag"],
          description: row.description,
          email: canTriage ? row.email : "",
          build_version: row.buildVersion,
          system_version: row.systemVersion,
          device_name: row.deviceName,
          device_uudid: row.deviceId,
          navigation_stack: row.navigationStack,
          image: row.imageKey
            ? await this.deps.storage.signedUrl(row.imageKey, {
                expiresInSeconds: imageLinkSeconds,
                contentType: row.imageType,
              })
            : null,
          image_width: row.imageWidth,
          image_height: row.imageHeight,
          version: version
            ? { id: version.id, version: version.version, build_version_number: version.buildNumber }
            : null,
          assignee: assignee
            ? {
                id: assignee.id,
                email: assignee.email,
                first_name: assignee.firstName,
                last_name: assignee.lastName,
              }
            : null,
          internal_note: canTriage ? row.internalNote : "",
          created_at: row.createdAt.toISOString(),
          updated_at: row.updatedAt.toISOString(),
        };
      }),
    );
  }
}
