import type { Platform } from "../../platform/platform.ts";
import type { ApplicationServices } from "../application/application-services.ts";
import { DistributionService } from "./distribution.service.ts";
import { GetappService } from "./getapp.service.ts";
import { InstallLinkSigner } from "./install-links.ts";
import { PermanentLinkService } from "./permanent-link.service.ts";
import { UdidService } from "./udid.service.ts";

export type DistributionServices = ReturnType<typeof createDistributionServices>;

/** Install links, the public install page, and UDID collection. */
export function createDistributionServices(platform: Platform, deps: { apps: ApplicationServices }) {
  const { db } = platform.database;
  const { config } = platform;
  const core = deps.apps.applications;
  const links = new InstallLinkSigner(platform.signer, config.PUBLIC_URL, config.SIGNED_URL_TTL_SECONDS);
  const distributions = new DistributionService({ db, core, publicUrl: config.PUBLIC_URL });
  return {
    distributions,
    getapp: new GetappService({
      db,
      core,
      versions: deps.apps.versions,
      links,
      publicUrl: config.PUBLIC_URL,
    }),
    permanentLinks: new PermanentLinkService({ db, storage: platform.storage, distributions }),
    udid: new UdidService({
      db,
      publicUrl: config.PUBLIC_URL,
      dataDir: config.DATA_DIR,
      signingCertPath: config.UDID_SIGNING_CERT ?? null,
      signingKeyPath: config.UDID_SIGNING_KEY ?? null,
    }),
  };
}
