import { and, eq, type SQL, sql } from "drizzle-orm";
import { anyOf } from "../../platform/db/any-of.ts";
import { BatchedReads } from "../../platform/db/batched-reads.ts";
import type { Database } from "../../platform/db/client.ts";
import {
  arrangeByIds,
  type OrderedList,
  selectIdList,
  selectSearchableList,
} from "../../platform/db/id-list.ts";
import { userDirectory } from "../users/users.views.ts";
import type { ShownApplication } from "./application.presenter.ts";
import { type ProjectContext, projectContextJson } from "./application.repo.ts";
import { applications, projectMembers, versions } from "./application.tables.ts";
import { grantedByGroup } from "./permission-group.repo.ts";
import type { ShownVersion } from "./version.presenter.ts";

export interface ApplicationListFilter {
  organizationId: number;
  /** Set for members who see only the apps of their projects (roles 3-5). */
  memberUserId?: number;
  appType?: number;
  /** Only apps with a ready current version; `saleOnly` also needs it marked ready to sale. */
  installable?: { saleOnly: boolean };
}

/** The project membership that makes an app visible: the project, and its environment. */
export function visibleToMember(userId: number): SQL {
  return sql`(exists (select 1 from ${projectMembers} pm
    where pm.project_id = ${applications.projectId} and pm.user_id = ${userId}
      and (pm.is_access_all_envs or ${applications.environment} = any(pm.access_envs)))
    or ${grantedByGroup(sql`${applications.projectId}`, userId)})`;
}

function conditions(filter: ApplicationListFilter): SQL | undefined {
  const saleOnly = filter.installable?.saleOnly ? sql` and v.ready_to_sale` : sql``;
  return and(
    eq(applications.organizationId, filter.organizationId),
    filter.memberUserId === undefined ? undefined : visibleToMember(filter.memberUserId),
    filter.appType === undefined ? undefined : eq(applications.appType, filter.appType),
    filter.installable
      ? sql`exists (select 1 from ${versions} v where v.id = ${applications.currentVersionId} and v.state = 'ready'${saleOnly})`
      : undefined,
  );
}

/**
 * The apps list sorts by the last change, which the (organization_id, updated_at, id) index
 * serves; the install list by the current build, newest first.
 */
function listOrder(filter: ApplicationListFilter): SQL {
  return filter.installable
    ? sql`${applications.currentVersionId} desc, ${applications.id} desc`
    : // As the index orders (both columns are never null): DESC alone would put nulls first,
      // which the index does not, and 100,000 rows would be sorted apart (on disk) each time.
      sql`${applications.updatedAt} desc nulls last, ${applications.id} desc nulls last`;
}

/**
 * Every app the filter keeps, in list order, with its search text (the app's folded title and
 * bundle id, and its project's folded title). Callers keep the answer per catalog version: a
 * title search is a pass over the texts.
 */
export function listApplications(db: Database, filter: ApplicationListFilter): Promise<OrderedList> {
  return selectSearchableList(
    db,
    // The project's folded title is kept on each app (and in the lists' indexes, with the app's).
    sql`select ${applications.id} as id,
          ${applications.searchText} || chr(2) || ${applications.projectSearchText} as search
        from ${applications} where ${conditions(filter)} order by ${listOrder(filter)}`,
  );
}

/**
 * Every app the filter keeps, in list order, without texts: all paging needs (a page is a slice,
 * the count its length). At 100,000 apps it reads 0.6 MB where the texts add 5.5, and takes
 * about 40 ms where the list with its texts takes 70.
 */
export async function listApplicationIds(db: Database, filter: ApplicationListFilter): Promise<OrderedList> {
  const orderedIds = sql`select ${applications.id} as id from ${applications}
    where ${conditions(filter)} order by ${listOrder(filter)}`;
  return { ids: await selectIdList(db, orderedIds) };
}

/** A list record's row: the app, its current build with who uploaded it, and its project. */
interface ListedRow {
  id: number | string;
  organization_id: number | string;
  project_id: number | string;
  title: string;
  app_type: number;
  environment: string;
  current_version_id: number | string | null;
  slack_webhook_sealed: string | null;
  record_json: string;
  version_id: number | string | null;
  version: string | null;
  icon_key: string | null;
  uploaded_by: number | string | null;
  version_record_json: string | null;
  uploader_id: number | string | null;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
  is_active: boolean | null;
  project: ProjectContext | null;
}

/**
 * The statement of a page's list records. It is sent as plain SQL and its rows are read by hand:
 * mapping them through the query builder cost 7–8 % of the server's time on pages not yet kept. Int8
 * columns come as strings from pg and as bigints from PGlite, hence Number().
 */
function listedApplicationsSql(organizationId: number, ids: number[]): SQL {
  return sql`select ${applications.id} as id, ${applications.organizationId} as organization_id,
      ${applications.projectId} as project_id, ${applications.title} as title,
      ${applications.appType} as app_type, ${applications.environment} as environment,
      ${applications.currentVersionId} as current_version_id,
      ${applications.slackWebhookSealed} as slack_webhook_sealed, ${applications.recordJson} as record_json,
      ${versions.id} as version_id, ${versions.version} as version, ${versions.iconKey} as icon_key,
      ${versions.uploadedBy} as uploaded_by, ${versions.recordJson} as version_record_json,
      ${userDirectory.userId} as uploader_id, ${userDirectory.email} as email,
      ${userDirectory.firstName} as first_name, ${userDirectory.lastName} as last_name,
      ${userDirectory.isActive} as is_active,
      ${projectContextJson(applications.projectId)} as project
    from ${applications}
    left join ${versions} on ${versions.id} = ${applications.currentVersionId}
    left join ${userDirectory} on ${userDirectory.userId} = ${versions.uploadedBy}
    where ${applications.organizationId} = ${organizationId} and ${anyOf(applications.id, ids)}`;
}

function listedOf(row: ListedRow) {
  const app: ShownApplication = {
    id: Number(row.id),
    organizationId: Number(row.organization_id),
    projectId: Number(row.project_id),
    title: row.title,
    appType: row.app_type,
    environment: row.environment,
    currentVersionId: row.current_version_id === null ? null : Number(row.current_version_id),
    slackWebhookSealed: row.slack_webhook_sealed,
    recordJson: row.record_json,
  };
  const version: ShownVersion | null =
    row.version_id === null
      ? null
      : {
          id: Number(row.version_id),
          version: row.version as string,
          iconKey: row.icon_key,
          uploadedBy: row.uploaded_by === null ? null : Number(row.uploaded_by),
          recordJson: row.version_record_json as string,
        };
  const uploader =
    row.uploader_id === null
      ? null
      : {
          id: Number(row.uploader_id),
          email: row.email as string,
          firstName: row.first_name as string,
          lastName: row.last_name as string,
          isActive: row.is_active as boolean,
        };
  return { id: app.id, app, current: version ? { version, uploader } : null, project: row.project };
}

/**
 * The apps with these ids, in the order of `ids`, each with its current build, who uploaded it
 * and its project: all a list record shows of them, in one statement.
 */
export async function findListedApplications(db: Database, organizationId: number, ids: number[]) {
  return arrangeByIds(ids, await readListedApplications(db, organizationId, ids));
}

/** As findListedApplications, in the database's order. */
async function readListedApplications(db: Database, organizationId: number, ids: number[]) {
  if (ids.length === 0) return [];
  const result = await db.execute(listedApplicationsSql(organizationId, ids));
  return (result as unknown as { rows: ListedRow[] }).rows.map(listedOf);
}

/**
 * Reads of list records by app id on `db`, those asked together (the pages of requests arriving
 * at once) answered by one statement per organization (the group).
 */
export function batchedListedApplications(db: Database) {
  return new BatchedReads(async (ids: number[], organizationId: number) => {
    const rows = await readListedApplications(db, organizationId, ids);
    return new Map(rows.map((row) => [row.id, row]));
  });
}
