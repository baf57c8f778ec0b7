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
import { preparedPerDatabase } from "../../platform/db/prepared.ts";
import { userDirectory } from "../users/users.views.ts";
import {
  type ProjectContext,
  projectContextJson,
  shownVersionColumns,
  uploaderColumns,
} from "./application.repo.ts";
import { applications, projectMembers, versions } from "./application.tables.ts";
import { grantedByGroup } from "./permission-group.repo.ts";

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

/** The apps list sorts by the last change, which the (organization_id, updated_at, id) index serves; the install list by the current build, newest first. */
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

/** The columns presenting an app reads (ShownApplication). */
const shownApplicationColumns = {
  id: applications.id,
  organizationId: applications.organizationId,
  projectId: applications.projectId,
  title: applications.title,
  appType: applications.appType,
  environment: applications.environment,
  currentVersionId: applications.currentVersionId,
  slackWebhookSealed: applications.slackWebhookSealed,
  recordJson: applications.recordJson,
};

const listedApplicationsQuery = preparedPerDatabase((db) =>
  db
    .select({
      app: shownApplicationColumns,
      version: shownVersionColumns,
      uploader: uploaderColumns,
      project: sql<ProjectContext | null>`${projectContextJson(applications.projectId)}`,
    })
    .from(applications)
    .leftJoin(versions, eq(versions.id, applications.currentVersionId))
    .leftJoin(userDirectory, eq(userDirectory.userId, versions.uploadedBy))
    .where(
      and(
        eq(applications.organizationId, sql.placeholder("organizationId")),
        anyOf(applications.id, sql.placeholder("ids")),
      ),
    )
    .prepare("listed_applications"),
);

/**
 * The apps with these ids, in the order of `ids`, each with its current build, who uploaded it
 * and its project: all a list record shows of them, in one statement.
 */
export async function findListedApplications(db: Database, organizationId: number, ids: number[]) {
  if (ids.length === 0) return [];
  const rows = await listedApplicationsQuery(db).execute({ organizationId, ids });
  return arrangeByIds(
    ids,
    rows.map(({ app, version, uploader, project }) => ({
      id: app.id,
      app,
      current: version ? { version, uploader } : null,
      project,
    })),
  );
}

/**
 * Reads of list records by app id on `db`, those asked together (the pages of requests arriving
 * at once) answered by one statement per organization (the group).
 */
export function batchedListedApplications(db: Database) {
  return new BatchedReads(async (ids: number[], organizationId: number) => {
    const rows = await findListedApplications(db, organizationId, ids);
    return new Map(rows.map((row) => [row.id, row]));
  });
}
