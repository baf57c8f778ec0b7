import type { SecretBox } from "../../platform/crypto/secret-box.ts";
import type { Database } from "../../platform/db/client.ts";
import type { DomainEvents } from "../../platform/events/domain-events.ts";
import type { JobQueue } from "../../platform/jobs/job-queue.ts";
import type { StorageResolver } from "../../platform/storage/storage-resolver.ts";
import type { AppLogService } from "../application/app-log.service.ts";
import type { ApplicationService } from "../application/application.service.ts";
import type { BuildRecordService } from "../application/build-record.service.ts";
import type { CatalogLocks } from "../application/catalog-locks.ts";
import type { VersionPresenter } from "../application/version.presenter.ts";
import type { DistributionService } from "../distribution/distribution.service.ts";
import type { MembershipService } from "../organization/membership.service.ts";
import type { OrganizationUsageService } from "../organization/organization-usage.service.ts";

/** What the upload side needs from the platform, organizations and the application module. */
export interface BuildDeps {
  db: Database;
  membership: MembershipService;
  usage: OrganizationUsageService;
  applications: ApplicationService;
  /** Where projects, apps and versions made from uploads are recorded. */
  builds: BuildRecordService;
  catalogLocks: CatalogLocks;
  appLogs: AppLogService;
  versions: VersionPresenter;
  /** Seals Slack webhook URLs the way the application module opens them. */
  slackWebhookBox: SecretBox;
  storage: StorageResolver;
  jobs: JobQueue;
  /** Build and plan events for webhooks and chat. */
  events: DomainEvents;
  /** Every new app gets its permanent install link in the transaction that makes the app. */
  appLinks: Pick<DistributionService, "ensureAppLink" | "installPageOf">;
  /** Whether AAB -> universal APK conversion is configured (bundletool and a keystore). */
  aabConversion: boolean;
}

export const preloadLifetimeMs = 24 * 3600 * 1000;
