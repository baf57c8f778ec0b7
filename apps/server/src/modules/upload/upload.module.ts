import type { AppModule } from "../../platform/module.ts";
import type { Platform } from "../../platform/platform.ts";
import type { ApplicationServices } from "../application/application.module.ts";
import type { DistributionServices } from "../distribution/distribution.module.ts";
import type { OrganizationServices } from "../organization/organization.module.ts";
import type { StorageServices } from "../storage/storage.module.ts";
import type { UsersServices } from "../users/users.module.ts";
import { AabConversionWorker } from "./aab-conversion.service.ts";
import { BuildCommitService } from "./build-commit.service.ts";
import { BuildCreateService } from "./build-create.service.ts";
import { CiUploadService } from "./ci-upload.service.ts";
import { registerConfirmAndExchangeRoutes } from "./confirm-and-exchange.routes.ts";
import { DerivedBuildService } from "./derived-build.service.ts";
import { ExchangeService } from "./exchange.service.ts";
import type { InstallableApkPort } from "./installable-apk-port.ts";
import { PreloadService } from "./preload.service.ts";
import { registerResumableUploadRoutes } from "./resumable-upload.routes.ts";
import { ResumableUploadService } from "./resumable-upload.service.ts";
import { StorageSweeper } from "./storage-sweep.service.ts";
import { createUploadJobs } from "./upload.jobs.ts";
import { registerUploadRoutes } from "./upload.routes.ts";
import type { BuildDeps } from "./upload-deps.ts";
import { UploadSlots } from "./upload-slots.ts";
import { UploadTaskService } from "./upload-task.service.ts";

/**
 * Uploads: streaming builds to storage, resumable (tus) uploads, preloads, CI uploads, file
 * exchange, AAB conversion, builds derived on the server (re-signed), the sweep.
 */
export function createUploadModule(
  platform: Platform,
  deps: UsersServices &
    OrganizationServices &
    ApplicationServices &
    Pick<StorageServices, "storageResolver"> &
    Pick<DistributionServices, "distributions"> & {
      /** AAB -> signed universal APK, answered by the android-signing module (bound in app.ts). */
      installableApk: InstallableApkPort;
    },
) {
  const { db } = platform.database;
  const maxUploadBytes = platform.config.UPLOAD_MAX_BYTES;
  const storage = deps.storageResolver;
  const sweeper = new StorageSweeper({
    db,
    storage: platform.storage,
    resolver: storage,
    builds: deps.builds,
    usage: deps.usage,
    graceSeconds: platform.config.STORAGE_SWEEP_GRACE_SECONDS,
  });
  const conversion = new AabConversionWorker({
    db,
    events: platform.events,
    storage,
    installableApk: deps.installableApk,
    builds: deps.builds,
    usage: deps.usage,
  });
  const slots = new UploadSlots({
    db,
    perUser: platform.config.UPLOADS_PER_USER,
    perAddress: platform.config.UPLOADS_PER_ADDRESS,
  });
  const jobs = createUploadJobs({ sweeper, conversion, slots });
  const buildDeps: BuildDeps = {
    db,
    membership: deps.membership,
    usage: deps.usage,
    applications: deps.applications,
    builds: deps.builds,
    catalogLocks: deps.catalogLocks,
    appLogs: deps.appLogs,
    versions: deps.versions,
    slackWebhookBox: deps.slackWebhookBox,
    storage,
    jobs: platform.jobs,
    events: platform.events,
    appLinks: deps.distributions,
    aabConversion: deps.installableApk.available,
  };
  const commits = new BuildCommitService({ ...buildDeps, convertJob: jobs.convertAab });
  const resumable = new ResumableUploadService({
    ...buildDeps,
    slots,
    maxUploadBytes,
    pendingPerUser: platform.config.UPLOAD_PENDING_PER_USER,
    lifetimeHours: platform.config.UPLOAD_RESUMABLE_HOURS,
    partBytes: platform.config.UPLOAD_RESUMABLE_PART_BYTES,
  });
  const preloads = new PreloadService({
    ...buildDeps,
    maxUploadBytes,
    pendingPerUser: platform.config.UPLOAD_PENDING_PER_USER,
    slots,
    resumable,
  });
  const creates = new BuildCreateService({ ...buildDeps, commits });
  const ciUploads = new CiUploadService({
    ...buildDeps,
    commits,
    tokens: deps.tokens,
    maxUploadBytes,
    slots,
    resumable,
  });
  const exchanges = new ExchangeService({ ...buildDeps, deleteFiles: deps.deleteFiles });
  const tasks = new UploadTaskService(buildDeps);
  const derivedBuilds = new DerivedBuildService({ ...buildDeps, commits });
  return {
    services: { sweeper, uploadTasks: tasks, derivedBuilds },
    routes: async (app) => {
      registerUploadRoutes(app, {
        preloads,
        ciUploads,
        exchanges,
        tasks,
        maxUploadBytes,
        appLinks: deps.distributions,
      });
      await registerResumableUploadRoutes(app, { uploads: resumable, maxUploadBytes });
      registerConfirmAndExchangeRoutes(app, {
        creates,
        exchanges,
        queries: deps.applicationQueries,
        versionEdits: deps.versionEdits,
      });
    },
    jobs: Object.values(jobs),
    schedules: [
      // Preloads live 24 h and are checked every 15 minutes (resumable uploads with them); the sweep runs daily at 04:41 UTC,
      // and once when a worker starts, so a crash's leftovers do not wait for the night.
      { job: jobs.expirePreloads, cron: "*/15 * * * *" },
      { job: jobs.sweepStorage, cron: "41 4 * * *", atWorkerStart: true },
    ],
  } satisfies AppModule;
}

export type UploadServices = ReturnType<typeof createUploadModule>["services"];
