import { SecretBox } from "../../platform/crypto/secret-box.ts";
import type { Platform } from "../../platform/platform.ts";
import type { MembershipService } from "../organization/membership.service.ts";
import { AppLogService } from "./app-log.service.ts";
import { createApplicationJobs, fileDeletion } from "./application.jobs.ts";
import { ApplicationPresenter } from "./application.presenter.ts";
import { ApplicationService } from "./application.service.ts";
import { ApplicationDeletionService } from "./application-deletion.service.ts";
import { ApplicationQueryService } from "./application-query.service.ts";
import { ApplicationUpdateService } from "./application-update.service.ts";
import { VersionPresenter } from "./version.presenter.ts";
import { VersionService } from "./version.service.ts";

export type ApplicationServices = ReturnType<typeof createApplicationServices>;

/** Purpose of the SecretBox key that seals Slack webhook URLs. */
export const slackWebhookPurpose = "app-slack-webhook";

/** Builds the application services and registers their jobs; the upload side receives them from here. */
export function createApplicationServices(platform: Platform, deps: { membership: MembershipService }) {
  const { db } = platform.database;
  const { membership } = deps;
  const secrets = new SecretBox(platform.config.SECRET_KEY, slackWebhookPurpose);
  const versions = new VersionPresenter({
    storage: platform.storage,
    signer: platform.signer,
    publicUrl: platform.config.PUBLIC_URL,
    downloadTtlSeconds: platform.config.SIGNED_URL_TTL_SECONDS,
  });
  const presenter = new ApplicationPresenter(db, versions, secrets);
  const appLogs = new AppLogService(db);
  const applicationJobs = createApplicationJobs(platform.storage);
  platform.jobs.register(Object.values(applicationJobs));
  const deleteFiles = fileDeletion(platform.jobs, applicationJobs);
  const applications = new ApplicationService({ db, membership, presenter, versions });
  return {
    applications,
    appLogs,
    versions,
    presenter,
    secrets,
    applicationJobs,
    deleteFiles,
    queries: new ApplicationQueryService({ db, membership, core: applications, presenter, appLogs }),
    updates: new ApplicationUpdateService({ db, core: applications, appLogs, secrets }),
    deletions: new ApplicationDeletionService({ db, membership, core: applications, appLogs, deleteFiles }),
    versionService: new VersionService({ db, core: applications, appLogs, presenter: versions }),
  };
}
