import { and, desc, eq, getTableColumns, ne, type Placeholder, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { anyOf } from "../../platform/db/any-of.ts";
import { BatchedReads } from "../../platform/db/batched-reads.ts";
import type { Database } from "../../platform/db/client.ts";
import { parseIdList, selectIdList } from "../../platform/db/id-list.ts";
import { preparedPerDatabase } from "../../platform/db/prepared.ts";
import { userDirectory } from "../users/users.views.ts";
import {
  type ApplicationRow,
  type BuildWithUploader,
  buildWithUploader,
  selectBuildsWithUploaders,
  shownVersionColumns,
  uploaderColumns,
  type VersionRow,
} from "./application.repo.ts";
import { applications, versions } from "./application.tables.ts";

export async function findVersion(db: Database, versionId: number): Promise<VersionRow | null> {
  const [row] = await db.select().from(versions).where(eq(versions.id, versionId)).limit(1);
  return row ?? null;
}

/**
 * An app's builds list, newest first (the (application_id, id) index): every build, or only the
 * released ones. Values or placeholders, so the list read alone and the one read with a page
 * (buildsPageQuery) are the same list.
 */
function listedBuilds(
  organizationId: number | Placeholder,
  applicationId: number | Placeholder,
  onlyReleased: boolean | Placeholder,
): SQL {
  return sql`select l.id from ${versions} l
    where l.organization_id = ${organizationId} and l.application_id = ${applicationId}
      and ${listedBuildCondition("l", onlyReleased)}
    order by l.id desc`;
}

/** Which builds the list holds: all of them, or only released ones (ready, ready to sale). */
function listedBuildCondition(alias: string, onlyReleased: boolean | Placeholder | SQL): SQL {
  const table = sql.raw(alias);
  return sql`(not ${onlyReleased}::boolean or (${table}.state = 'ready' and ${table}.ready_to_sale))`;
}

/** An app's build ids in list order, for pages and the count. */
export function listVersionIds(
  db: Database,
  organizationId: number,
  applicationId: number,
  onlyReleased: boolean,
): Promise<Float64Array> {
  return selectIdList(db, listedBuilds(organizationId, applicationId, onlyReleased));
}

const listedBuildsOfPage = listedBuilds(
  sql.placeholder("organizationId"),
  sql.placeholder("applicationId"),
  sql.placeholder("onlyReleased"),
);

const buildsPageQuery = preparedPerDatabase((db) =>
  db
    .select({
      version: shownVersionColumns,
      uploader: uploaderColumns,
      // The whole list's ids ride on the page's first row only (the subquery runs once).
      listed: sql<string | null>`case when row_number() over (order by ${versions.id} desc) = 1
        then (select string_agg(b.id::text, ',') from (${listedBuildsOfPage}) b) end`,
    })
    .from(versions)
    .leftJoin(userDirectory, eq(userDirectory.userId, versions.uploadedBy))
    .where(
      and(
        eq(versions.organizationId, sql.placeholder("organizationId")),
        sql`${versions.id} = any(array(select p.id from (${listedBuildsOfPage}) p
          offset ${sql.placeholder("offset")} limit ${sql.placeholder("limit")}))`,
      ),
    )
    .orderBy(desc(versions.id))
    .prepare("builds_page"),
);

/** An app's whole builds list with uploaders, in list order (listedBuilds), for short lists. */
const wholeBuildsListQuery = preparedPerDatabase((db) =>
  selectBuildsWithUploaders(db)
    .where(
      and(
        eq(versions.organizationId, sql.placeholder("organizationId")),
        eq(versions.applicationId, sql.placeholder("applicationId")),
        listedBuildCondition("versions", sql.placeholder("onlyReleased")),
      ),
    )
    .orderBy(desc(versions.id))
    .prepare("whole_builds_list"),
);

/** Up to this many builds, an app's builds list is read whole rather than a page with its ids. */
const wholeListUpTo = 50;

/**
 * A JSON object with the fields a select of `columns` maps to (the same keys, so rows read as JSON
 * equal rows read as columns), each column named through `qualify`.
 */
function jsonObjectOf(columns: Record<string, AnyPgColumn>, qualify: (column: AnyPgColumn) => SQL): SQL {
  const fields = Object.entries(columns).map(
    ([key, column]) => sql`${sql.raw(`'${key}'`)}, ${qualify(column)}`,
  );
  return sql`json_build_object(${sql.join(fields, sql`, `)})`;
}

/**
 * The app by id with its whole builds list when it has at most wholeListUpTo builds (else
 * `builds` is null), in one statement: a builds page of an app not seen before costs the token's
 * statement and this one. Which builds are listed depends on the caller's role in the app's
 * organization, not known before the row is: `releasedOnlyIn` names the organizations where the
 * caller sees only released builds. The caller authorizes afterwards, and drops the builds when
 * the membership it finds disagrees.
 */
const applicationWithBuildsQuery = preparedPerDatabase((db) => {
  // A select from one table leaves its columns unqualified, and inside the subquery those names
  // would bind to the builds' own columns: the app's and the uploader's are named in full.
  const app = (column: AnyPgColumn) => sql`${applications}.${sql.identifier(column.name)}`;
  const build = (column: AnyPgColumn) => sql`v.${sql.identifier(column.name)}`;
  const uploader = (column: AnyPgColumn) =>
    sql`${sql.identifier("user_directory")}.${sql.identifier(column.name)}`;
  const releasedOnly = sql`(${app(applications.organizationId)} = any(${sql.placeholder("releasedOnlyIn")}::bigint[]))`;
  return db
    .select({
      app: getTableColumns(applications),
      builds: sql<Array<Pick<BuildWithUploader, "version" | "uploader">> | null>`case
        when ${app(applications.versionsCount)} <= ${sql.raw(String(wholeListUpTo))} then coalesce((
          select json_agg(json_build_object(
              'version', ${jsonObjectOf(shownVersionColumns, build)},
              'uploader', case when ${uploader(userDirectory.userId)} is null then null
                else ${jsonObjectOf(uploaderColumns, uploader)} end)
            order by v.id desc)
          from ${versions} v left join ${userDirectory} on ${uploader(userDirectory.userId)} = v.uploaded_by
          where v.organization_id = ${app(applications.organizationId)}
            and v.application_id = ${app(applications.id)}
            and ${listedBuildCondition("v", releasedOnly)}), '[]')
        end`,
    })
    .from(applications)
    .where(anyOf(applications.id, sql.placeholder("appIds")))
    .prepare("applications_with_builds");
});

export type ApplicationWithBuilds = { app: ApplicationRow; builds: BuildWithUploader[] | null };

/** The apps with these ids, by id, each with its whole builds list when it has few builds. */
async function findApplicationsWithBuilds(db: Database, appIds: number[], releasedOnlyIn: number[]) {
  const rows = await applicationWithBuildsQuery(db).execute({ appIds, releasedOnlyIn });
  return new Map<number, ApplicationWithBuilds>(
    rows.map((row) => [row.app.id, { app: row.app, builds: row.builds?.map(buildWithUploader) ?? null }]),
  );
}

export async function findApplicationWithBuilds(
  db: Database,
  appId: number,
  releasedOnlyIn: number[],
): Promise<ApplicationWithBuilds | null> {
  return (await findApplicationsWithBuilds(db, [appId], releasedOnlyIn)).get(appId) ?? null;
}

/**
 * findApplicationWithBuilds for the requests arriving together: on `root`, one statement for all
 * the apps read with the same organizations seeing only released builds (the group, their ids
 * joined by commas); inside a transaction, which may see its own changes, a statement of its own.
 */
export function batchedApplicationsWithBuilds(root: Database) {
  const batch = new BatchedReads((appIds: number[], releasedOnlyIn: string) =>
    findApplicationsWithBuilds(root, appIds, releasedOnlyIn ? releasedOnlyIn.split(",").map(Number) : []),
  );
  return async (db: Database, appId: number, releasedOnlyIn: number[]) =>
    db === root
      ? ((await batch.read(appId, releasedOnlyIn.join(","))) ?? null)
      : findApplicationWithBuilds(db, appId, releasedOnlyIn);
}

/** A page of a builds list read whole, with the ids of the whole list (as readBuildsPage). */
export function pageOfWholeList(all: BuildWithUploader[], page: { offset: number; limit: number }) {
  return {
    ids: Float64Array.from(all, (row) => row.id),
    rows: all.slice(page.offset, page.offset + page.limit),
  };
}

/**
 * A page of an app's builds list (as listVersionIds orders it) with their uploaders, and the
 * ids of the whole list, in one statement: a builds list no one has read since the catalog
 * changed costs one statement. An app with few builds (`buildsCount`, its kept counter) has its
 * whole list read by the plain statement, cheaper than the page's (no window, no subqueries);
 * otherwise `ids` is absent when the page is empty (past the end).
 */
export async function readBuildsPage(
  db: Database,
  organizationId: number,
  applicationId: number,
  onlyReleased: boolean,
  page: { offset: number; limit: number },
  buildsCount: number = Number.POSITIVE_INFINITY,
) {
  if (buildsCount <= wholeListUpTo) {
    const all = (await wholeBuildsListQuery(db).execute({ organizationId, applicationId, onlyReleased })).map(
      buildWithUploader,
    );
    return pageOfWholeList(all, page);
  }
  const rows = await buildsPageQuery(db).execute({ organizationId, applicationId, onlyReleased, ...page });
  return {
    ids: rows.length > 0 ? parseIdList(rows[0]?.listed) : undefined,
    rows: rows.map(buildWithUploader),
  };
}

export async function updateVersion(
  db: Database,
  organizationId: number,
  versionId: number,
  values: Partial<Pick<VersionRow, "whatsNew" | "comment" | "readyToSale">>,
): Promise<VersionRow | null> {
  const [row] = await db
    .update(versions)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(versions.organizationId, organizationId), eq(versions.id, versionId)))
    .returning();
  return row ?? null;
}

/** The newest ready version of the app other than `exceptId`, to become current. */
export async function findNewestReadyVersionId(
  db: Database,
  applicationId: number,
  exceptId: number,
): Promise<number | null> {
  const [row] = await db
    .select({ id: versions.id })
    .from(versions)
    .where(
      and(eq(versions.applicationId, applicationId), eq(versions.state, "ready"), ne(versions.id, exceptId)),
    )
    .orderBy(desc(versions.id))
    .limit(1);
  return row?.id ?? null;
}

export async function deleteVersionRow(db: Database, versionId: number): Promise<void> {
  await db.delete(versions).where(eq(versions.id, versionId));
}

export async function setCurrentAfterDeletion(
  db: Database,
  applicationId: number,
  currentVersionId: number | null,
): Promise<void> {
  await db
    .update(applications)
    .set({
      currentVersionId,
      versionsCount: sql`greatest(${applications.versionsCount} - 1, 0)`,
      updatedAt: new Date(),
    })
    .where(eq(applications.id, applicationId));
}

/** The newest build of the app whose version or build number is what an installed app reported. */
export async function findVersionReported(
  db: Database,
  applicationId: number,
  reported: string,
): Promise<VersionRow | null> {
  const [row] = await db
    .select()
    .from(versions)
    .where(
      and(
        eq(versions.applicationId, applicationId),
        sql`(${versions.version} = ${reported} or ${versions.buildNumber} = ${reported})`,
      ),
    )
    .orderBy(desc(versions.id))
    .limit(1);
  return row ?? null;
}
