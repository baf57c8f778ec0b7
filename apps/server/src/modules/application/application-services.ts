import { SecretBox } from "../../platform/crypto/secret-box.ts";
import type { Platform } from "../../platform/platform.ts";
import type { MembershipService } from "../organization/membership.service.ts";
import { AppLogService } from "./app-log.service.ts";
import { ApplicationPresenter } from "./application.presenter.ts";
import { ApplicationService } from "./application.service.ts";
import { VersionPresenter } from "./version.presenter.ts";

export type ApplicationServices = ReturnType<typeof createApplicationServices>;

/** Purpose of the SecretBox key that seals Slack webhook URLs. */
export const slackWebhookPurpose = "app-slack-webhook";

/** Builds the application services; the build (upload) side receives them from here. */
export function createApplicationServices(platform: Platform, deps: { membership: MembershipService }) {
  const { db } = platform.database;
  const secrets = new SecretBox(platform.config.SECRET_KEY, slackWebhookPurpose);
  const versions = new VersionPresenter({
    storage: platform.storage,
    signer: platform.signer,
    publicUrl: platform.config.PUBLIC_URL,
    downloadTtlSeconds: platform.config.SIGNED_URL_TTL_SECONDS,
  });
  const presenter = new ApplicationPresenter(db, versions, secrets);
  const appLogs = new AppLogService(db);
  const applications = new ApplicationService({ db, membership: deps.membership, presenter, versions });
  return { applications, appLogs, versions, presenter, secrets };
}
