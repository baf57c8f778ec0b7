import { readFileSync } from "node:fs";
import { SecretBox } from "../../platform/crypto/secret-box.ts";
import type { AppModule } from "../../platform/module.ts";
import type { Platform } from "../../platform/platform.ts";
import type { ApplicationServices } from "../application/application.module.ts";
import type { OrganizationServices } from "../organization/organization.module.ts";
import { createPushJobs } from "./push.jobs.ts";
import { registerPushRoutes } from "./push.routes.ts";
import { PushAudience } from "./push-audience.ts";
import { PushDeliveryService } from "./push-delivery.service.ts";
import { PushNotifyService } from "./push-notify.service.ts";
import { PushSender } from "./push-sender.ts";
import { PushSubscriptionService } from "./push-subscription.service.ts";
import { ServerKeys } from "./server-keys.ts";

/** Purpose of the SecretBox key that seals push subscriptions and the VAPID private key. */
const pushSecretPurpose = "web-push";

/** The subject push services are given when none is configured: the address mail is sent from. */
export function defaultVapidSubject(mailFrom: string, publicUrl: string): string {
  const address = /<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom.trim();
  if (/^\S+@\S+$/.test(address)) return `mailto:${address}`;
  return publicUrl;
}

/** Web push: browsers' subscriptions, the instance's key pair, and pushes about builds, feedback and store uploads. */
export function createPushModule(platform: Platform, deps: OrganizationServices & ApplicationServices) {
  const { db } = platform.database;
  const { config } = platform;
  const box = new SecretBox(config.SECRET_KEY, pushSecretPurpose);
  const keys = new ServerKeys({
    db,
    box,
    configured: { publicKey: config.VAPID_PUBLIC_KEY, privateKey: config.VAPID_PRIVATE_KEY },
  });
  const allowPrivateTargets = config.ALLOW_PRIVATE_NETWORK_TARGETS;
  const subscriptions = new PushSubscriptionService({ db, box, keys, allowPrivateTargets });
  const sender = new PushSender({
    subject: config.VAPID_SUBJECT ?? defaultVapidSubject(config.MAIL_FROM, config.PUBLIC_URL),
    allowPrivateTargets,
    timeoutMs: config.WEBHOOK_TIMEOUT_SECONDS * 1000,
    ...(config.PUSH_SERVICE_CA_FILE ? { ca: readFileSync(config.PUSH_SERVICE_CA_FILE, "utf8") } : {}),
  });
  const audience = new PushAudience({
    applications: deps.applications,
    membership: deps.membership,
    projectMembership: deps.projectMembership,
  });
  const deliveries = new PushDeliveryService({ db, keys, sender, subscriptions });
  const jobs = createPushJobs({ db, deliveries });
  const notify = new PushNotifyService({
    db,
    jobs: platform.jobs,
    deliverJob: jobs.deliver,
    audience,
    builds: deps.builds,
  });
  platform.events.subscribe((event) => notify.onEvent(event));
  return {
    services: { pushSubscriptions: subscriptions, pushNotify: notify, pushKeys: keys },
    routes: (app) => registerPushRoutes(app, { subscriptions, notify }),
    jobs: Object.values(jobs),
    schedules: [{ job: jobs.forget, cron: "17 3 * * *" }],
    personalData: [subscriptions.personalData],
  } satisfies AppModule;
}
