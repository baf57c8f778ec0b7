import type { Platform } from "../../platform/platform.ts";
import {
  type OrganizationStorage,
  platformStorageResolver,
  type StorageResolver,
} from "../../platform/storage/storage-resolver.ts";
import type { ApplicationServices } from "../application/application-services.ts";
import type { AuthTokenService } from "../auth/auth-token.service.ts";
import type { MembershipService } from "../organization/membership.service.ts";
import { AabConversionWorker } from "./aab-conversion.service.ts";
import { converterFromConfig } from "./aab-converter.ts";
import { createBuildJobs } from "./upload.jobs.ts";
import { BuildCommitService } from "./build-commit.service.ts";
import { BuildCreateService } from "./build-create.service.ts";
import type { BuildDeps } from "./upload-deps.ts";
import { CiUploadService } from "./ci-upload.service.ts";
import { ExchangeService } from "./exchange.service.ts";
import { PreloadService } from "./preload.service.ts";
import { StorageSweeper } from "./storage-sweep.service.ts";
import { UploadTaskService } from "./upload-task.service.ts";

/** The resolver the upload side uses; swapped when organization storage settings change (and in tests). */
export class SwitchableStorageResolver implements StorageResolver {
  constructor(private current: StorageResolver) {}

  use(resolver: StorageResolver): void {
    this.current = resolver;
  }

  forOrganization(organizationId: number): Promise<OrganizationStorage> {
    return this.current.forOrganization(organizationId);
  }
}

export type BuildServices = ReturnType<typeof createBuildServices>;

/** Builds the upload-side services and registers their jobs. */
export function createBuildServices(
  platform: Platform,
  deps: {
    apps: ApplicationServices;
    membership: MembershipService;
    tokens: AuthTokenService;
  },
) {
  const { db } = platform.database;
  const storage = new SwitchableStorageResolver(platformStorageResolver(platform.storage));
  const converter = converterFromConfig(platform.config);
  const sweeper = new StorageSweeper({
    db,
    storage: platform.storage,
    resolver: storage,
    graceSeconds: platform.config.STORAGE_SWEEP_GRACE_SECONDS,
  });
  const conversion = new AabConversionWorker({ db, storage, converter });
  const jobs = createBuildJobs({ sweeper, conversion });
  platform.jobs.register(Object.values(jobs));
  const buildDeps: BuildDeps = {
    db,
    membership: deps.membership,
    applications: deps.apps.applications,
    appLogs: deps.apps.appLogs,
    versions: deps.apps.versions,
    secrets: deps.apps.secrets,
    storage,
    jobs: platform.jobs,
    aabConversion: converter !== null,
  };
  const commits = new BuildCommitService(buildDeps, jobs.convertAab);
  return {
    storage,
    jobs,
    sweeper,
    conversion,
    preloads: new PreloadService(buildDeps),
    creates: new BuildCreateService(buildDeps, commits),
    ciUploads: new CiUploadService(buildDeps, commits, deps.tokens),
    exchanges: new ExchangeService(buildDeps, deps.apps.deleteFiles),
    tasks: new UploadTaskService(buildDeps),
  };
}
