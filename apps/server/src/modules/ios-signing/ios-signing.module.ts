import { SecretBox } from "../../platform/crypto/secret-box.ts";
import type { AppModule } from "../../platform/module.ts";
import type { Platform } from "../../platform/platform.ts";
import type { ApplicationServices } from "../application/application.module.ts";
import type { StorageServices } from "../storage/storage.module.ts";
import type { UploadServices } from "../upload/upload.module.ts";
import { IosResignWorker } from "./ios-resign.worker.ts";
import { createIosSigningJobs } from "./ios-signing.jobs.ts";
import { registerIosSigningRoutes } from "./ios-signing.routes.ts";
import { IosResignService } from "./ios-signing.service.ts";

/** iOS re-signing of uploaded IPAs with an organization's own identity and profiles. */
export function createIosSigningModule(
  platform: Platform,
  deps: ApplicationServices &
    Pick<StorageServices, "storageResolver"> &
    Pick<UploadServices, "derivedBuilds">,
) {
  const { db } = platform.database;
  const now = () => new Date();
  const common = {
    db,
    derivedBuilds: deps.derivedBuilds,
    storage: deps.storageResolver,
    // The identity, its password and the profiles wait sealed under a key of their own purpose.
    secrets: new SecretBox(platform.config.SECRET_KEY, "ios-resign-material"),
    now,
  };
  const worker = new IosResignWorker({ ...common, builds: deps.builds, applications: deps.applications });
  const jobs = createIosSigningJobs(() => worker);
  const resigns = new IosResignService({
    ...common,
    applications: deps.applications,
    jobs: platform.jobs,
    resignJob: jobs.resign,
  });
  return {
    services: { resigns },
    routes: (app) => registerIosSigningRoutes(app, { resigns }),
    jobs: Object.values(jobs),
  } satisfies AppModule;
}
