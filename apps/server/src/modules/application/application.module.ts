import { GenerationCache } from "../../platform/cache/generation-cache.ts";
import { SecretBox } from "../../platform/crypto/secret-box.ts";
import type { AppModule } from "../../platform/module.ts";
import type { Platform } from "../../platform/platform.ts";
import type { AuthServices } from "../auth/auth.module.ts";
import type { OrganizationServices } from "../organization/organization.module.ts";
import type { UsersServices } from "../users/users.module.ts";
import { AppLogService } from "./app-log.service.ts";
import { createApplicationJobs, fileDeletion } from "./application.jobs.ts";
import { ApplicationPresenter } from "./application.presenter.ts";
import { registerApplicationRoutes } from "./application.routes.ts";
import { ApplicationService } from "./application.service.ts";
import { ApplicationDeletionService } from "./application-deletion.service.ts";
import { ApplicationQueryService } from "./application-query.service.ts";
import { ApplicationUpdateService } from "./application-update.service.ts";
import { BuildRecordService } from "./build-record.service.ts";
import { CatalogLocks } from "./catalog-locks.ts";
import { registerDownloadRoutes } from "./download.routes.ts";
import { registerPermissionGroupRoutes } from "./permission-group.routes.ts";
import { PermissionGroupService } from "./permission-group.service.ts";
import { registerProjectMemberRoutes } from "./project-member.routes.ts";
import { ProjectMemberService } from "./project-member.service.ts";
import { ProjectMembershipService } from "./project-membership.service.ts";
import { ReleaseService } from "./release.service.ts";
import { VersionPresenter } from "./version.presenter.ts";
import { registerVersionRoutes } from "./version.routes.ts";
import { VersionService } from "./version.service.ts";
import { VersionFiles } from "./version-files.ts";

/** Purpose of the SecretBox key that seals Slack webhook URLs. */
export const slackWebhookPurpose = "app-slack-webhook";

/** Projects, apps, versions and the activity log; project members; build downloads. */
export function createApplicationModule(
  platform: Platform,
  deps: UsersServices & OrganizationServices & AuthServices,
) {
  const { db } = platform.database;
  const { config } = platform;
  const { membership, users } = deps;
  const slackWebhookBox = new SecretBox(config.SECRET_KEY, slackWebhookPurpose);
  const versions = new VersionPresenter({
    storage: platform.storage,
    signer: platform.signer,
    publicUrl: config.PUBLIC_URL,
    downloadTtlSeconds: config.SIGNED_URL_TTL_SECONDS,
  });
  const presenter = new ApplicationPresenter({ db, users, versions, slackWebhookBox });
  const appLogs = new AppLogService({ db, users });
  const applicationJobs = createApplicationJobs(platform.storage);
  const deleteFiles = fileDeletion(platform.jobs, applicationJobs);
  const applications = new ApplicationService({
    db,
    membership,
    users,
    presenter,
    versions,
    identity: platform.identity,
  });
  const queries = new ApplicationQueryService({
    db,
    membership,
    core: applications,
    presenter,
    appLogs,
    // A minute at most, well inside the lifetime of the signed URLs the pages carry.
    cache: new GenerationCache<Buffer>({
      maxEntries: 2000,
      maxAgeMs: Math.min(60, config.SIGNED_URL_TTL_SECONDS / 4) * 1000,
    }),
    lists: platform.lists,
    // Serialized app records (about 1.5 KB each): 160 MiB holds 100,000 apps. They carry signed
    // links, so they age like the pages.
    records: new GenerationCache<Buffer>({
      maxEntries: 200_000,
      maxAgeMs: Math.min(60, config.SIGNED_URL_TTL_SECONDS / 4) * 1000,
      maxWeight: 160 * 1024 * 1024,
    }),
  });
  const updates = new ApplicationUpdateService({ db, core: applications, appLogs, slackWebhookBox });
  const deletions = new ApplicationDeletionService({
    db,
    usage: deps.usage,
    core: applications,
    appLogs,
    deleteFiles,
    events: platform.events,
  });
  const versionService = new VersionService({ db, core: applications, appLogs, presenter: versions });
  const projectMembership = new ProjectMembershipService({ db, organizations: deps.organizations });
  const projectMembers = new ProjectMemberService({
    db,
    membership,
    lists: platform.lists,
    organizations: deps.organizations,
    apps: applications,
    accounts: deps.accounts,
  });
  const publicUrl = config.PUBLIC_URL;
  const permissionGroups = new PermissionGroupService({ db, membership: deps.membership });
  return {
    services: {
      applications,
      applicationQueries: queries,
      updates,
      appDeletions: deletions,
      appLogs,
      versions,
      versionEdits: versionService,
      slackWebhookBox,
      deleteFiles,
      builds: new BuildRecordService({ db }),
      releases: new ReleaseService({ db }),
      catalogLocks: new CatalogLocks(),
      versionFiles: new VersionFiles({ db }),
      projectMembership,
    },
    routes: (app) => {
      registerApplicationRoutes(app, { queries, updates, deletions, publicUrl });
      registerVersionRoutes(app, { versions: versionService, deletions });
      registerDownloadRoutes(app, {
        versions: versionService,
        storage: platform.storage,
        signer: platform.signer,
      });
      registerProjectMemberRoutes(app, { members: projectMembers, publicUrl });
      registerPermissionGroupRoutes(app, { groups: permissionGroups, publicUrl });
    },
    jobs: Object.values(applicationJobs),
    personalData: [projectMembership.personalData],
  } satisfies AppModule;
}

export type ApplicationServices = ReturnType<typeof createApplicationModule>["services"];
