import type { AppLink, ApplicationRecord, AppType } from "@tarmac/contracts";
import { tagName } from "@tarmac/inspector/rules";
import type { SecretBox } from "../../platform/crypto/secret-box.ts";
import type { Database } from "../../platform/db/client.ts";
import { extendJsonObject } from "../../platform/db/rendered-json.ts";
import { isAdminRole } from "../organization/roles.ts";
import type { UserSummary as Person, UserService } from "../users/user.service.ts";
import {
  type ApplicationRow,
  findAppIconKeys,
  findProjectContexts,
  findVersionsWithUploaders,
  listPreviousVersions,
  type ProjectContext,
} from "./application.repo.ts";
import { type ShownVersion, uploaderOf, type VersionPresenter } from "./version.presenter.ts";

const previousVersionsShown = 5;

/** What an app's record takes from elsewhere than its own row (see serializeMany). */
type AddedField =
  | "project_title"
  | "new_version"
  | "base_app"
  | "slack_webhook"
  | "users"
  | "current_version"
  | "previous_versions"
  | "other_platform"
  | "tag_name"
  | "icon";

/** What presenting an app reads of its row: lists select these columns only. */
export type ShownApplication = Pick<
  ApplicationRow,
  | "id"
  | "organizationId"
  | "projectId"
  | "title"
  | "appType"
  | "environment"
  | "currentVersionId"
  | "slackWebhookSealed"
  | "recordJson"
>;

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
      slackWebhookBox: SecretBox;
    },
  ) {
    this.db = deps.db;
  }

  async presentMany(
    ...args: Parameters<ApplicationPresenter["serializeMany"]>
  ): Promise<ApplicationRecord[]> {
    return (await this.serializeMany(...args)).map((json) => JSON.parse(json) as ApplicationRecord);
  }

  /**
   * The apps' records as JSON text, in order: each app's own fields as the database rendered
   * them (applications.record_json) with what comes from its builds, project and the viewer.
   */
  async serializeMany(
    organizationId: number,
    apps: ShownApplication[],
    viewerRole: number,
    db = this.db,
    options: {
      previousVersions: boolean;
      /** The apps' current builds with their uploaders, when the caller read them already. */
      currentBuilds?: Array<{ version: ShownVersion; uploader: Person | null }>;
      /** The apps' projects, when the caller read them already. */
      projects?: ProjectContext[];
    } = { previousVersions: true },
  ): Promise<string[]> {
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
    // An app whose current build has no icon keeps the icon of its newest build that had one.
    const iconless = apps.filter(
      (app) => app.currentVersionId && !currentById.get(app.currentVersionId)?.iconKey,
    );
    const keptIcons = await findAppIconKeys(
      db,
      organizationId,
      iconless.map((app) => app.id),
    );
    const previousByApp = groupBy(previousRows, (row) => row.applicationId);
    const renderVersion = (row: ShownVersion, app: ShownApplication) =>
      this.deps.versions.render(row, app, uploaderOf(row, uploaders));

    return Promise.all(
      apps.map(async (app) => {
        const project = projectById.get(app.projectId);
        const projectTitle = project?.title ?? "";
        const projectApps = project?.apps ?? [];
        const currentRow = app.currentVersionId ? currentById.get(app.currentVersionId) : undefined;
        const current = currentRow ? await renderVersion(currentRow, app) : null;
        const previous = await Promise.all(
          (previousByApp.get(app.id) ?? []).map(async (row) => (await renderVersion(row, app)).json),
        );
        const added: Omit<Pick<ApplicationRecord, AddedField>, "current_version" | "previous_versions"> = {
          project_title: projectTitle,
          new_version: currentRow?.version ?? "",
          base_app: projectApps[0]?.id ?? app.id,
          slack_webhook: this.slackWebhookFor(app, viewerRole),
          users: project?.memberIds ?? [],
          other_platform: projectApps
            .filter((row) => row.environment === app.environment && row.appType !== app.appType)
            .map(toAppLink),
          tag_name: tagName(projectTitle, app.appType as AppType),
          icon: current?.icon ?? (await this.deps.versions.iconUrl(keptIcons.get(app.id) ?? null)),
        };
        return extendJsonObject(app.recordJson, added, {
          current_version: current?.json ?? "null",
          previous_versions: `[${previous.join(",")}]`,
        });
      }),
    );
  }

  /** The webhook URL is a credential: only admins see it. */
  private slackWebhookFor(app: Pick<ApplicationRow, "slackWebhookSealed">, viewerRole: number): string {
    if (!app.slackWebhookSealed || !isAdminRole(viewerRole)) return "";
    try {
      return this.deps.slackWebhookBox.open(app.slackWebhookSealed);
    } catch {
      return "";
    }
  }
}

export function toAppLink(row: { id: number; title: string; appType: number; environment: string }): AppLink {
  return { id: row.id, title: row.title, app_type: row.appType as AppType, environment: row.environment };
}
