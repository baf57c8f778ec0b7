import { SecretBox } from "../../platform/crypto/secret-box.ts";
import type { AppModule } from "../../platform/module.ts";
import type { Platform } from "../../platform/platform.ts";
import type { ApplicationServices } from "../application/application.module.ts";
import type { OrganizationServices } from "../organization/organization.module.ts";
import { LocationDirectory } from "./location-directory.ts";
import { OrganizationStorageResolver } from "./organization-storage.ts";
import { createStorageJobs } from "./storage.jobs.ts";
import { listLocationIds } from "./storage.repo.ts";
import { registerStorageRoutes } from "./storage.routes.ts";
import { StorageMoveService } from "./storage-move.service.ts";
import { StorageSettingsService } from "./storage-settings.service.ts";

/** Purpose of the SecretBox key that seals storage secrets. */
const storageSecretPurpose = "organization-storage";

/**
 * Organizations' own buckets (S3-compatible, Google Cloud Storage): settings, where new files
 * go, moving existing files, and the drivers behind location-qualified keys.
 */
export function createStorageModule(platform: Platform, deps: OrganizationServices & ApplicationServices) {
  const { db } = platform.database;
  const { config } = platform;
  const box = new SecretBox(config.SECRET_KEY, storageSecretPurpose);
  const directory = new LocationDirectory({
    db,
    box,
    signer: platform.signer,
    publicUrl: config.PUBLIC_URL,
    proxyDownloads: config.STORAGE_PROXY_DOWNLOADS,
    allowPrivateTargets: config.ALLOW_PRIVATE_NETWORK_TARGETS,
    gcsApiEndpoint: config.GCS_API_ENDPOINT,
  });
  platform.storage.useLocations({
    driverOf: (location) => directory.driverOf(location),
    ids: (organizationId) => listLocationIds(db, organizationId),
  });
  const settings = new StorageSettingsService({
    db,
    membership: deps.membership,
    directory,
    box,
    allowPrivateTargets: config.ALLOW_PRIVATE_NETWORK_TARGETS,
  });
  const moves: StorageMoveService = new StorageMoveService({
    db,
    storage: platform.storage,
    versionFiles: deps.versionFiles,
    membership: deps.membership,
    jobs: platform.jobs,
    storageJobs: () => storageJobs,
  });
  const storageJobs = createStorageJobs({ moves });
  const resolver = new OrganizationStorageResolver({
    db,
    storage: platform.storage,
    membership: deps.membership,
    organizations: deps.organizations,
    mail: platform.mail,
    publicUrl: config.PUBLIC_URL,
  });
  return {
    services: { storageResolver: resolver, storageSettings: settings, storageMoves: moves },
    routes: (app) => registerStorageRoutes(app, { settings, moves }),
    jobs: Object.values(storageJobs),
  } satisfies AppModule;
}

export type StorageServices = ReturnType<typeof createStorageModule>["services"];
