import type { AppModule } from "../../platform/module.ts";
import type { Platform } from "../../platform/platform.ts";
import type { ApplicationServices } from "../application/application.module.ts";
import type { OrganizationServices } from "../organization/organization.module.ts";
import type { TesterServices } from "../tester/tester.module.ts";
import { registerAppDetailRoutes } from "./app-detail.routes.ts";
import { createDistributionJobs } from "./distribution.jobs.ts";
import { registerDistributionRoutes } from "./distribution.routes.ts";
import { DistributionService } from "./distribution.service.ts";
import { registerGetappRoutes } from "./getapp.routes.ts";
import { GetappService } from "./getapp.service.ts";
import { InstallLinkSigner } from "./install-links.ts";
import { InstallReservations } from "./install-reservations.service.ts";
import { LinkPasswordGuard } from "./link-password-guard.ts";
import { PermanentLinkService } from "./permanent-link.service.ts";
import { registerUdidRoutes } from "./udid.routes.ts";
import { UdidService } from "./udid.service.ts";

/** Install links, the public install page with the iOS manifest, and UDID collection. */
export function createDistributionModule(
  platform: Platform,
  deps: OrganizationServices & ApplicationServices & TesterServices,
) {
  const { db } = platform.database;
  const { config, storage } = platform;
  const { applications: core, releases, organizations } = deps;
  const links = new InstallLinkSigner({
    signer: platform.signer,
    publicUrl: config.PUBLIC_URL,
    ttlSeconds: config.SIGNED_URL_TTL_SECONDS,
  });
  const distributions = new DistributionService({
    db,
    core,
    releases,
    catalogLocks: deps.catalogLocks,
    publicUrl: config.PUBLIC_URL,
  });
  const udid = new UdidService({
    db,
    releases,
    membership: deps.membership,
    publicUrl: config.PUBLIC_URL,
    dataDir: config.DATA_DIR,
    signingCertPath: config.UDID_SIGNING_CERT ?? null,
    signingKeyPath: config.UDID_SIGNING_KEY ?? null,
  });
  const reservations = new InstallReservations({ db, releases, events: platform.events });
  const passwords = new LinkPasswordGuard({
    db,
    mail: platform.mail,
    membership: deps.membership,
    appTitle: async (link) => (await core.findApp(link.organizationId, link.applicationId))?.title ?? "",
    organizations,
    publicUrl: config.PUBLIC_URL,
  });
  const getapp = new GetappService({
    db,
    core,
    releases,
    organizations,
    testers: deps.testers,
    reservations,
    versions: deps.versions,
    links,
    passwords,
    publicUrl: config.PUBLIC_URL,
  });
  const permanentLinks = new PermanentLinkService({ storage, distributions, releases, organizations });
  const jobs = createDistributionJobs({ udid, reservations });
  return {
    services: { distributions, udid, getapp },
    routes: (app) => {
      registerDistributionRoutes(app, { distributions, permanentLinks, publicUrl: config.PUBLIC_URL });
      registerAppDetailRoutes(app, {
        queries: deps.applicationQueries,
        distributions,
        publicUrl: config.PUBLIC_URL,
      });
      registerGetappRoutes(app, { getapp, storage });
      registerUdidRoutes(app, { udid });
    },
    jobs: Object.values(jobs),
    // Expired UDID enrollments and install reservations are removed hourly.
    schedules: [
      { job: jobs.expireEnrollments, cron: "17 * * * *" },
      { job: jobs.expireReservations, cron: "23 * * * *" },
    ],
  } satisfies AppModule;
}

export type DistributionServices = ReturnType<typeof createDistributionModule>["services"];
