/** Reading apps: the lists, one app with its variants, its builds and the caller's rights. */
import type { AppLink, ApplicationDetail, MyAppRole, Version } from "@tarmac/contracts";
import { AppError } from "../../http/errors.ts";
import type { PageParams } from "../../http/pagination.ts";
import type { GenerationCache } from "../../platform/cache/generation-cache.ts";
import { keptBytes } from "../../platform/cache/kept-bytes.ts";
import {
  keptRecords,
  type ListCaches,
  pageOfList,
  pageRowsOfList,
} from "../../platform/cache/list-caches.ts";
import type { Database } from "../../platform/db/client.ts";
import { arrangeByIds } from "../../platform/db/id-list.ts";
import { type Caller, type MembershipService, userIdOf } from "../organization/membership.service.ts";
import { isAdminRole } from "../organization/roles.ts";
import type { AppLogService } from "./app-log.service.ts";
import { canOnApp, canSeeBuild, seesOnlyReleasedBuilds } from "./application.policy.ts";
import { type ApplicationPresenter, toAppLink } from "./application.presenter.ts";
import {
  type BuildWithUploader,
  findProjectAccess,
  findVersionsWithUploaders,
  listProjectApps,
} from "./application.repo.ts";
import type { ApplicationService } from "./application.service.ts";
import { coversEnvironment } from "./application.service.ts";
import { batchedListedApplications, listApplicationIds, listApplications } from "./application-list.repo.ts";
import {
  batchedApplicationsWithBuilds,
  findVersion,
  listVersionIds,
  pageOfWholeList,
  readBuildsPage,
} from "./version.repo.ts";

export interface ApplicationListQuery {
  org?: number;
  title?: string;
  mobile_type?: number;
}

export class ApplicationQueryService {
  /** List records not yet kept, read for the pages of requests arriving together at once. */
  private readonly listedApplications: ReturnType<typeof batchedListedApplications>;
  /** Apps not kept with their builds, read for the builds pages of requests arriving together. */
  private readonly applicationsWithBuilds: ReturnType<typeof batchedApplicationsWithBuilds>;

  constructor(
    private readonly deps: {
      db: Database;
      membership: MembershipService;
      core: ApplicationService;
      presenter: ApplicationPresenter;
      appLogs: AppLogService;
      /** Serialized list pages (UTF-8), valid while the organization's catalog version holds. */
      cache: GenerationCache<Buffer>;
      /**
       * Each list's ids in order (every app an organization's filter keeps, with their search
       * texts; an app's builds), per catalog version: any page is a slice, the count is the
       * length and a search a pass over the texts, so neither a deep page, nor counting, nor a
       * search reads the catalog again until it changes.
       */
      lists: ListCaches;
      /** Apps as list records (UTF-8 JSON), per catalog version and viewer role (see recordsOf). */
      records: GenerationCache<Buffer>;
    },
  ) {
    this.listedApplications = batchedListedApplications(deps.db);
    this.applicationsWithBuilds = batchedApplicationsWithBuilds(deps.db);
  }

  /**
   * Apps of one organization (?org=, else the caller's first) the caller may see, as a JSON page
   * served from the cache while nothing in the organization changed.
   * `pageKey` identifies the request (its URL); `render` wraps a page in the reply shape.
   */
  async listJson(
    caller: Caller,
    query: ApplicationListQuery,
    params: PageParams,
    options: { installable: boolean; pageKey: string },
    /** `results` holds each record already serialized, to be spliced in as they are. */
    render: (page: { count: number; results: Buffer[] }) => Buffer,
  ): Promise<Buffer> {
    const userId = userIdOf(caller);
    const member =
      query.org !== undefined
        ? await this.deps.membership.getMembership(caller, query.org)
        : (await this.deps.membership.listMemberships(caller))[0];
    if (!member) return render({ count: 0, results: [] });
    const generation = member.catalogVersion;
    // Admins share pages; other members see their own projects, so their pages are their own.
    const viewer = isAdminRole(member.role) ? "all" : `${userId}/${member.role}`;
    const key = `apps ${options.installable} ${member.organizationId} ${viewer} ${options.pageKey}`;
    return this.deps.cache.getOrBuild(key, generation, async () =>
      render(await this.listFor(member, userId, query, params, options)),
    );
  }

  /** An app's builds page as JSON, cached like the app lists. */
  async listBuildsJson(
    caller: Caller,
    appId: number,
    params: PageParams,
    pageKey: string,
    /** `results` holds each build's record already serialized. */
    render: (page: { count: number; results: string[] }) => Buffer,
  ): Promise<Buffer> {
    const { app, member, whole } = await this.accessibleAppWithBuilds(caller, appId);
    const onlyReleased = seesOnlyReleasedBuilds(member.role);
    const generation = member.catalogVersion;
    const key = `builds ${app.id} ${onlyReleased} ${pageKey}`;
    return this.deps.cache.getOrBuild(key, generation, async () =>
      render(await this.buildsOf(app, member, params, whole)),
    );
  }

  /**
   * The app as getAccessibleApp finds it for app:read, and `whole`, its whole builds list as the
   * caller's role lists it, when its row was not kept and the list is short: both are then read
   * in one statement. Which builds are listed depends on the caller's role in the app's
   * organization, not known before the row is, so the statement is told where the caller's
   * memberships see only released builds.
   */
  private async accessibleAppWithBuilds(caller: Caller, appId: number) {
    const carried = typeof caller === "number" ? [] : (caller.memberships ?? []);
    const releasedOnlyIn = carried
      .filter((membership) => seesOnlyReleasedBuilds(membership.role))
      .map((membership) => membership.organizationId);
    const readAlong: { builds: BuildWithUploader[] | null } = { builds: null };
    const readRow = async (db: Database, id: number) => {
      const found = await this.applicationsWithBuilds(db, id, releasedOnlyIn);
      readAlong.builds = found?.builds ?? null;
      return found?.app ?? null;
    };
    const { app, member } = await this.deps.core.getAccessibleApp(
      caller,
      appId,
      "app:read",
      undefined,
      readRow,
    );
    // The list holds for the role it was read for: the membership found is the one carried,
    // unless the caller carried none.
    const readFor = releasedOnlyIn.includes(app.organizationId);
    const whole = readFor === seesOnlyReleasedBuilds(member.role) ? readAlong.builds : null;
    return { app, member, whole };
  }

  private async listFor(
    member: { organizationId: number; role: number; catalogVersion: number },
    userId: number,
    query: ApplicationListQuery,
    params: PageParams,
    options: { installable: boolean },
  ): Promise<{ count: number; results: Buffer[] }> {
    const filter = {
      organizationId: member.organizationId,
      memberUserId: isAdminRole(member.role) ? undefined : userId,
      appType: query.mobile_type,
      installable: options.installable ? { saleOnly: seesOnlyReleasedBuilds(member.role) } : undefined,
    };
    // A title search matches the title, bundle id or project title, ignoring case and accents.
    // Pages of the whole list also bring the app before them and the next page (see below).
    const before = query.title || params.offset === 0 ? 0 : 1;
    const page = await pageOfList(
      this.deps.lists,
      {
        key: `apps ${JSON.stringify(filter)}`,
        generation: member.catalogVersion,
        load: () => listApplications(this.deps.db, filter),
        loadIds: () => listApplicationIds(this.deps.db, filter),
      },
      query.title,
      { offset: params.offset - before, limit: before + params.pageSize * (query.title ? 1 : 2) },
    );
    const ids = page.ids.slice(before, before + params.pageSize);
    // Someone paging on is likely to want the next page too, so when this page must be read, the
    // next one is read and presented with it. A reader is paging on on the first page, or when
    // the app before this page is kept (its page was read); a jump into the middle reads only
    // its own page, which halves what a random page costs.
    const pagingOn = page.ids.slice(0, before).every((id) => this.recordKept(member, id));
    const readAhead = pagingOn ? page.ids.slice(before + params.pageSize) : [];
    return { count: page.count, results: await this.recordsOf(member, ids, readAhead) };
  }

  private recordKey = (role: number, id: number) => `${id} ${role}`;

  private recordKept(member: { role: number; catalogVersion: number }, id: number): boolean {
    return this.deps.records.get(this.recordKey(member.role, id), member.catalogVersion) !== undefined;
  }

  /**
   * The list records of these apps, in order, serialized: each is kept per catalog version (and
   * the viewer's role, which decides what a record shows), so a page of apps seen before costs
   * no query at all, and the others are read and presented together.
   */
  private async recordsOf(
    member: { organizationId: number; role: number; catalogVersion: number },
    ids: number[],
    readAhead: number[],
  ): Promise<Buffer[]> {
    // List records leave previous_versions empty: five builds per app would make a page five
    // times heavier, and the builds list pages them anyway.
    const options = { previousVersions: false };
    const { organizationId, role, catalogVersion } = member;
    return keptRecords(
      this.deps.records,
      catalogVersion,
      ids,
      (id) => this.recordKey(role, id),
      async (missing) => {
        const read = await Promise.all(missing.map((id) => this.listedApplications.read(id, organizationId)));
        const listed = read.filter((row) => row !== undefined);
        const currentBuilds = listed.flatMap((row) => (row.current ? [row.current] : []));
        const projects = listed.flatMap((row) => (row.project ? [row.project] : []));
        const records = await this.deps.presenter.serializeMany(
          organizationId,
          listed.map((row) => row.app),
          role,
          undefined,
          { ...options, currentBuilds, projects },
        );
        return listed.map((row, index) => ({ id: row.id, record: keptBytes(records[index] as string) }));
      },
      readAhead,
    );
  }

  /**
   * 404 unless the caller may install the app (the mobile area's rule): it has a ready current
   * build, and a released one for roles that see only released builds.
   */
  async assertInstallable(userId: number, appId: number): Promise<void> {
    const { app, member } = await this.deps.core.getAccessibleApp(userId, appId, "app:read");
    const current = app.currentVersionId ? await findVersion(this.deps.db, app.currentVersionId) : null;
    const installable =
      current?.state === "ready" && (!seesOnlyReleasedBuilds(member.role) || current.readyToSale);
    if (!installable) throw AppError.notFound();
  }

  async getDetail(
    userId: number,
    appId: number,
    options: { showAllEnvironments: boolean },
  ): Promise<ApplicationDetail> {
    const { app, member } = await this.deps.core.getAccessibleApp(userId, appId, "app:read");
    const record: ApplicationDetail = await this.deps.core.presentApp(app, member);
    if (options.showAllEnvironments)
      record.environments = await this.listEnvironments(userId, app, member.role);
    return record;
  }

  /** The project's apps of this platform in every environment the caller may enter. */
  private async listEnvironments(
    userId: number,
    app: { organizationId: number; projectId: number; appType: number },
    role: number,
  ): Promise<AppLink[]> {
    const siblings = await listProjectApps(this.deps.db, app.organizationId, [app.projectId]);
    const access = isAdminRole(role) ? null : await findProjectAccess(this.deps.db, app.projectId, userId);
    return siblings
      .filter((row) => row.appType === app.appType)
      .filter((row) => isAdminRole(role) || coversEnvironment(access, row.environment))
      .map(toAppLink);
  }

  async listBuilds(
    userId: number,
    appId: number,
    params: PageParams,
  ): Promise<{ count: number; results: Version[] }> {
    const { app, member } = await this.deps.core.getAccessibleApp(userId, appId, "app:read");
    const { count, results } = await this.buildsOf(app, member, params);
    return { count, results: results.map((json) => JSON.parse(json) as Version) };
  }

  /** A page of the app's builds; `whole` is its whole builds list when already read. */
  private async buildsOf(
    app: Parameters<ApplicationService["presentVersions"]>[1],
    member: { role: number; catalogVersion: number },
    params: PageParams,
    whole: BuildWithUploader[] | null = null,
  ): Promise<{ count: number; results: string[] }> {
    const onlyReleased = seesOnlyReleasedBuilds(member.role);
    const { organizationId } = app;
    const page = { offset: params.offset, limit: params.pageSize };
    const { count, rows } = await pageRowsOfList(
      this.deps.lists,
      {
        key: `builds ${app.id} ${onlyReleased}`,
        generation: member.catalogVersion,
        load: async () => ({ ids: await listVersionIds(this.deps.db, organizationId, app.id, onlyReleased) }),
      },
      page,
      async (ids) =>
        arrangeByIds(ids, whole ?? (await findVersionsWithUploaders(this.deps.db, organizationId, ids))),
      async () =>
        whole
          ? pageOfWholeList(whole, page)
          : readBuildsPage(this.deps.db, organizationId, app.id, onlyReleased, page, app.versionsCount),
    );
    return { count, results: await this.deps.core.serializeBuilds(rows, app) };
  }

  async getBuild(userId: number, appId: number, buildId: number): Promise<Version> {
    const { app, member } = await this.deps.core.getAccessibleApp(userId, appId, "app:read");
    const row = await findVersion(this.deps.db, buildId);
    if (!row || row.applicationId !== app.id || !canSeeBuild(member.role, row)) throw AppError.notFound();
    return (await this.deps.core.presentVersions([row], app))[0] as Version;
  }

  async listLog(userId: number, appId: number, params: PageParams) {
    const { app } = await this.deps.core.getAccessibleApp(userId, appId, "app:read-log");
    return this.deps.appLogs.list(app.organizationId, app.id, params);
  }

  async checkMyRole(userId: number, appId: number): Promise<MyAppRole> {
    const { member, access, projectRole } = await this.deps.core.getAccessibleApp(userId, appId, "app:read");
    return {
      role: member.role,
      project_role: projectRole,
      can_upload: canOnApp(member.role, "build:upload", access),
      can_edit: canOnApp(member.role, "app:update", access),
      can_delete: canOnApp(member.role, "app:delete", access),
      can_download: canOnApp(member.role, "build:download", access),
    };
  }
}
