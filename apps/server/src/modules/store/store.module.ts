import { SecretBox } from "../../platform/crypto/secret-box.ts";
import type { AppModule } from "../../platform/module.ts";
import type { Platform } from "../../platform/platform.ts";
import type { ApplicationServices } from "../application/application.module.ts";
import type { OrganizationServices } from "../organization/organization.module.ts";
import { createStoreJobs } from "./store.jobs.ts";
import { registerStoreRoutes } from "./store.routes.ts";
import { StoreAccountService } from "./store-accounts.service.ts";
import { StoreCheckService } from "./store-checks.service.ts";
import { StoreClients } from "./store-clients.ts";
import { StoreUploadService } from "./store-upload.service.ts";
import { StoreUploadWorker } from "./store-upload.worker.ts";

/** Purpose of the SecretBox key that seals developer accounts' keys. */
const storeKeyPurpose = "store-developer-keys";

/** Publishing builds to TestFlight and Google Play with the organization's developer accounts. */
export function createStoreModule(platform: Platform, deps: OrganizationServices & ApplicationServices) {
  const { db } = platform.database;
  const { config } = platform;
  const clients = new StoreClients(
    {
      appStoreConnectUrl: config.APP_STORE_CONNECT_API_URL,
      googleTokenUrl: config.GOOGLE_OAUTH_TOKEN_URL,
      googlePlayUrl: config.GOOGLE_PLAY_API_URL,
      allowPrivateTargets: config.ALLOW_PRIVATE_NETWORK_TARGETS,
    },
    new SecretBox(config.SECRET_KEY, storeKeyPurpose),
  );
  const worker = new StoreUploadWorker({
    db,
    storage: platform.storage,
    events: platform.events,
    clients,
    pollMs: config.STORE_PROCESSING_POLL_MS,
    maxPollMs: 30 * 60_000,
  });
  const jobs = createStoreJobs(worker);
  const storeAccounts = new StoreAccountService({ db, membership: deps.membership, clients });
  const storeChecks = new StoreCheckService({ db, applications: deps.applications, clients });
  const storeUploads = new StoreUploadService({
    db,
    jobs: platform.jobs,
    applications: deps.applications,
    checks: storeChecks,
    uploadJob: () => jobs.upload,
  });
  return {
    services: { storeAccounts, storeChecks, storeUploads },
    routes: (app) =>
      registerStoreRoutes(app, { accounts: storeAccounts, checks: storeChecks, uploads: storeUploads }),
    jobs: Object.values(jobs),
  } satisfies AppModule;
}

export type StoreServices = ReturnType<typeof createStoreModule>["services"];
