import { SecretBox } from "../../platform/crypto/secret-box.ts";
import type { AppModule } from "../../platform/module.ts";
import type { Platform } from "../../platform/platform.ts";
import type { ApplicationServices } from "../application/application.module.ts";
import type { DistributionServices } from "../distribution/distribution.module.ts";
import type { OrganizationServices } from "../organization/organization.module.ts";
import type { StoreServices } from "../store/store.module.ts";
import { ChatChannelService } from "./chat-channel.service.ts";
import { DeliveryService } from "./delivery.service.ts";
import { createIntegrationJobs } from "./integrations.jobs.ts";
import { registerIntegrationRoutes } from "./integrations.routes.ts";
import { WebhookService } from "./webhook.service.ts";

/** Purpose of the SecretBox key that seals webhook URLs and signing secrets. */
const webhookSecretPurpose = "webhooks";

/** Webhooks and chat messages: the organization's events, told to the outside world. */
export function createIntegrationsModule(
  platform: Platform,
  deps: OrganizationServices &
    ApplicationServices &
    DistributionServices &
    Pick<StoreServices, "storeAccounts">,
) {
  const { db } = platform.database;
  const { config } = platform;
  const box = new SecretBox(config.SECRET_KEY, webhookSecretPurpose);
  const allowPrivateTargets = config.ALLOW_PRIVATE_NETWORK_TARGETS;
  const deliveries = new DeliveryService({
    db,
    jobs: platform.jobs,
    box,
    slackWebhookBox: deps.slackWebhookBox,
    applications: deps.applications,
    builds: deps.builds,
    versions: deps.versions,
    organizations: deps.organizations,
    installPage: (app) => deps.distributions.installPageOf(app),
    publicUrl: config.PUBLIC_URL,
    timeoutSeconds: config.WEBHOOK_TIMEOUT_SECONDS,
    allowPrivateTargets,
  });
  const jobs = createIntegrationJobs({ db, deliveries });
  platform.events.subscribe((event) => deliveries.fanOut(event));
  const webhooks = new WebhookService({
    db,
    membership: deps.membership,
    applications: deps.applications,
    box,
    deliveries,
    allowPrivateTargets,
    storeEventsOffered: (organizationId) => deps.storeAccounts.hasAccounts(organizationId),
  });
  const chat = new ChatChannelService({
    applications: deps.applications,
    membership: deps.membership,
    updates: deps.updates,
    slackWebhookBox: deps.slackWebhookBox,
    deliveries,
    allowPrivateTargets,
  });
  return {
    services: { webhooks, deliveries },
    routes: (app) => registerIntegrationRoutes(app, { webhooks, chat, publicUrl: config.PUBLIC_URL }),
    jobs: Object.values(jobs),
    schedules: [{ job: jobs.redrive, cron: "* * * * *", atWorkerStart: true }],
  } satisfies AppModule;
}
