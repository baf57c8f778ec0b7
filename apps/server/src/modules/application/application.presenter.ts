import type { AppLink, ApplicationRecord, AppType, Version } from "@tarmac/contracts";
import { tagName } from "@tarmac/inspector/rules";
import type { SecretBox } from "../../platform/crypto/secret-box.ts";
import type { Database } from "../../platform/db/client.ts";
import { isAdminRole } from "../organization/roles.ts";
import type { UserSummary as Person, UserService } from "../users/user.service.ts";
import {
  type ApplicationRow,
  findProjectContexts,
  findVersionsWithUploaders,
  listPreviousVersions,
  type ProjectContext,
  type VersionRow,
} from "./application.repo.ts";
import { uploaderOf, type VersionPresenter } from "./version.presenter.ts";

const previousVersionsShown = 5;

function groupBy<T, K>(items: T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = groups.get(k);
    if (list) list.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

function unique(values: (number | null)[]): number[] {
  return [...new Set(values.filter((value): value is number => value !== null))];
}

/**
 * Turns a page of application rows into records with a fixed number of queries, whatever the
 * page size: projects, sibling apps, members, versions and uploaders are each loaded once.
 */
export class ApplicationPresenter {
  private readonly db: Database;

  constructor(
    private readonly deps: {
      db: Database;
      users: UserService;
      versions: VersionPresenter;
      secrets: SecretBox;
    },
  ) {
    this.db = deps.db;
  }

  async presentMany(
    organizationId: number,
    apps: ApplicationRow[],
    viewerRole: number,
    db = this.db,
    options: {
      previousVersions: boolean;
      /** The apps' current builds with their uploaders, when the caller read them already. */
      currentBuilds?: Array<{ version: VersionRow; uploader: Person | null }>;
      /** The apps' projects, when the caller read them already. */
      projects?: ProjectContext[];
    } = { previousVersions: true },
  ): Promise<ApplicationRecord[]> {
    if (apps.length === 0) return [];
    const projectIds = unique(apps.map((app) => app.projectId));
    const [projectRows, current, previousRows] = await Promise.all([
      options.projects ?? findProjectContexts(db, organizationId, projectIds),
      // The current builds come with their uploaders: one statement fewer for a list page.
      options.currentBuilds ??
        findVersionsWithUploaders(db, organizationId, unique(apps.map((app) => app.currentVersionId))),
      options.previousVersions
        ? listPreviousVersions(db, organizationId, unique(apps.map((app) => app.id)), previousVersionsShown)
        : [],
    ]);
    const currentRows = current.map((entry) => entry.version);
    const uploaders = new Map(current.flatMap(({ uploader }) => (uploader ? [[uploader.id, uploader]] : [])));
    const others = unique(previousRows.map((row) => row.uploadedBy)).filter((id) => !uploaders.has(id));
    for (const [id, person] of await this.deps.users.summaries(others, db)) uploaders.set(id, person);
    const projectById = new Map(projectRows.map((row) => [row.id, row]));
    const currentById = new Map(currentRows.map((row) => [row.id, row]));
    const previousByApp = groupBy(previousRows, (row) => row.applicationId);
    const showVersion = (row: VersionRow, app: ApplicationRow): Promise<Version> =>
      this.deps.versions.present(row, app, uploaderOf(row, uploaders));

    return Promise.all(
      apps.map(async (app) => {
        const project = projectById.get(app.projectId);
        const projectTitle = project?.title ?? "";
        const projectApps = project?.apps ?? [];
        const currentRow = app.currentVersionId ? currentById.get(app.currentVersionId) : undefined;
        const current = currentRow ? await showVersion(currentRow, app) : null;
        const previous = await Promise.all(
          (previousByApp.get(app.id) ?? []).map((row) => showVersion(row, app)),
        );
        return {
          id: app.id,
          project_title: projectTitle,
          title: app.title,
          new_version: currentRow?.version ?? "",
          app_type: app.appType as AppType,
          base_app: projectApps[0]?.id ?? app.id,
          project_app: app.projectId,
          environment: app.environment,
          slack_webhook: this.slackWebhookFor(app, viewerRole),
          slack_channel: app.slackChannel,
          description: app.description,
          organization: app.organizationId,
          distribution: [],
          users: project?.memberIds ?? [],
          team_detail: [],
          count_versions: app.versionsCount,
          current_version: current,
          previous_versions: previous,
          upload_path: `/api/app_upload/${app.appKey}/`,
          ready_to_sale: app.readyToSale,
          feedback_enabled: app.feedbackEnabled,
          autoupdate_enabled: app.autoUpdateEnabled,
          other_platform: projectApps
            .filter((row) => row.environment === app.environment && row.appType !== app.appType)
            .map(toAppLink),
          app_key: app.appKey,
          unique_app_id: app.bundleId,
          tag_name: tagName(projectTitle, app.appType as AppType),
          icon: current?.icon ?? null,
          created_at: app.createdAt.toISOString(),
          updated_at: app.updatedAt.toISOString(),
        };
      }),
    );
  }

  /** The webhook URL is a credential: only admins see it. */
  private slackWebhookFor(app: ApplicationRow, viewerRole: number): string {
    if (!app.slackWebhookSealed || !isAdminRole(viewerRole)) return "";
    try {
      return this.deps.secrets.open(app.slackWebhookSealed);
    } catch {
      return "";
    }
  }
}

export function toAppLink(row: { id: number; title: string; appType: number; environment: string }): AppLink {
  return { id: row.id, title: row.title, app_type: row.appType as AppType, environment: row.environment };
}
