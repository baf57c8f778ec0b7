import { and, count, desc, eq, ilike, or, type SQL, sql } from "drizzle-orm";
import type { Database } from "../../platform/db/client.ts";
import { likePattern } from "../../platform/db/like-pattern.ts";
import type { ApplicationRow } from "./application.repo.ts";
import { applications, projectMembers, projects, versions } from "./application.tables.ts";
import { grantedByGroup } from "./permission-group.repo.ts";

export interface ApplicationListFilter {
  organizationId: number;
  /** Set for members who see only the apps of their projects (roles 3-5). */
  memberUserId?: number;
  title?: string;
  appType?: number;
  /** Only apps with a ready current version; `saleOnly` also needs it marked ready to sale. */
  installable?: { saleOnly: boolean };
  limit: number;
  offset: number;
}

/** The project membership that makes an app visible: the project, and its environment. */
export function visibleToMember(userId: number): SQL {
  return sql`(exists (select 1 from ${projectMembers} pm
    where pm.project_id = ${applications.projectId} and pm.user_id = ${userId}
      and (pm.is_access_all_envs or ${applications.environment} = any(pm.access_envs)))
    or ${grantedByGroup(sql`${applications.projectId}`, userId)})`;
}

function conditions(filter: ApplicationListFilter): SQL | undefined {
  const pattern = filter.title ? likePattern(filter.title) : undefined;
  const saleOnly = filter.installable?.saleOnly ? sql` and v.ready_to_sale` : sql``;
  return and(
    eq(applications.organizationId, filter.organizationId),
    filter.memberUserId === undefined ? undefined : visibleToMember(filter.memberUserId),
    pattern
      ? or(
          ilike(applications.title, pattern),
          sql`exists (select 1 from ${projects} p where p.id = ${applications.projectId} and p.title ilike ${pattern})`,
        )
      : undefined,
    filter.appType === undefined ? undefined : eq(applications.appType, filter.appType),
    filter.installable
      ? sql`exists (select 1 from ${versions} v where v.id = ${applications.currentVersionId} and v.state = 'ready'${saleOnly})`
      : undefined,
  );
}

/**
 * One page of apps and the total, in two statements without joins (filters are EXISTS
 * subqueries). The app list sorts by the last change, which the (organization_id, updated_at,
 * id) index serves; the install list by the current version, the newest build first.
 */
export async function listApplicationPage(
  db: Database,
  filter: ApplicationListFilter,
): Promise<{ count: number; rows: ApplicationRow[] }> {
  const where = conditions(filter);
  const [total] = await db.select({ value: count() }).from(applications).where(where);
  const order = filter.installable
    ? [desc(applications.currentVersionId)]
    : [desc(applications.updatedAt), desc(applications.id)];
  const rows = await db
    .select()
    .from(applications)
    .where(where)
    .orderBy(...order)
    .limit(filter.limit)
    .offset(filter.offset);
  return { count: total?.value ?? 0, rows };
}
