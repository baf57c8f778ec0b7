/**
 * Turns domain events into pushes: a build ready for those who may install or test it, a
 * feedback report for those who look after the app, a finished store upload for the person who
 * started it. Each subscription's push is a job of its own, so one slow or failing push service
 * holds up no other, and a retry sends only what failed.
 */
import { z } from "zod";
import { countInWindow, enforceRateLimit } from "../../http/throttle/throttle.ts";
import type { Database } from "../../platform/db/client.ts";
import type { DomainEvent } from "../../platform/events/domain-events.ts";
import type { JobDefinition } from "../../platform/jobs/define-job.ts";
import type { JobQueue } from "../../platform/jobs/job-queue.ts";
import type { BuildRecordService } from "../application/build-record.service.ts";
import { roles } from "../organization/roles.ts";
import { claimEvent, listSubscriptionsOfUsers } from "./push.repo.ts";
import type { Listener, PushAudience } from "./push-audience.ts";
import type { MessageFacts } from "./push-messages.ts";

/** Pushes one person receives in an hour at most; past that the hour's events stay silent. */
export const pushesPerUserPerHour = 60;
/** Feedback reports of one app pushed in an hour; the rest are in the app's inbox (and the mail digest). */
export const feedbackPushesPerAppHour = 3;
/** Test pushes one person may ask for in ten minutes. */
const testPushesPerTenMinutes = 5;
const hourMs = 3600_000;

const factsSchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("build"),
    app: z.string(),
    version: z.string(),
    buildNumber: z.string(),
    url: z.string(),
    appId: z.number().int(),
  }),
  z.object({
    kind: z.literal("feedback"),
    app: z.string(),
    tag: z.string(),
    description: z.string(),
    url: z.string(),
    reportId: z.number().int(),
  }),
  z.object({
    kind: z.literal("store_upload"),
    app: z.string(),
    store: z.string(),
    version: z.string(),
    url: z.string(),
    appId: z.number().int(),
  }),
  z.object({ kind: z.literal("test") }),
]) satisfies z.ZodType<MessageFacts>;

export const pushDeliveryPayload = z.object({
  subscriptionId: z.number().int().positive(),
  facts: factsSchema,
});
export type PushDeliveryPayload = z.infer<typeof pushDeliveryPayload>;

const storeNames: Record<string, string> = { app_store: "TestFlight", google_play: "Google Play" };

export class PushNotifyService {
  constructor(
    private readonly deps: {
      db: Database;
      jobs: JobQueue;
      /** One push to one subscription (run by the delivery service). */
      deliverJob: JobDefinition<typeof pushDeliveryPayload>;
      audience: PushAudience;
      builds: Pick<BuildRecordService, "findVersion">;
    },
  ) {}

  /** Listens to every domain event; the ones nobody is pushed about return at once. */
  async onEvent(event: DomainEvent): Promise<void> {
    if (!["build.ready", "feedback.received", "store_upload.finished"].includes(event.type)) return;
    await this.deps.db.transaction(async (tx) => {
      // The event job runs again after any failure of any listener: push once per event.
      if (!(await claimEvent(tx, event.id))) return;
      const planned = await this.plan(event, tx);
      for (const { listeners, facts } of planned) await this.queue(listeners, facts, tx);
    });
  }

  /** A test push to each of the person's own subscriptions; answers how many were queued. */
  async sendTest(userId: number): Promise<number> {
    await enforceRateLimit(this.deps.db, `push-test:${userId}`, testPushesPerTenMinutes, hourMs / 6);
    return this.deps.db.transaction((tx) =>
      this.queue([{ userId, role: roles.owner }], () => ({ kind: "test" }), tx),
    );
  }

  private async plan(
    event: DomainEvent,
    tx: Database,
  ): Promise<{ listeners: Listener[]; facts: (listener: Listener) => MessageFacts }[]> {
    if (event.applicationId === null) return [];
    const app = await this.deps.audience.findApp(event.organizationId, event.applicationId, tx);
    if (!app) return [];
    const version = event.versionId
      ? await this.deps.builds.findVersion(event.organizationId, event.versionId, tx)
      : null;
    if (event.type === "build.ready") {
      if (!version) return [];
      const listeners = (await this.deps.audience.whoSeesBuild(app, version, tx)).filter(
        // Whoever uploaded the build knows of it already.
        (listener) => listener.userId !== version.uploadedBy,
      );
      const facts = (listener: Listener): MessageFacts => ({
        kind: "build",
        app: app.title,
        version: version.version,
        buildNumber: version.buildNumber,
        appId: app.id,
        // Installers go to the mobile area, where their builds are; the others to the app's page.
        url:
          listener.role === roles.mobileUser || listener.role === roles.tester
            ? "/dashboard/m"
            : `/dashboard/apps/${app.id}`,
      });
      return [{ listeners, facts }];
    }
    if (event.type === "feedback.received") {
      const report = z
        .object({
          id: z.number().int(),
          tag: z.string().default("feedback"),
          description: z.string().default(""),
        })
        .safeParse(event.data.feedback);
      if (!report.success) return [];
      // Anyone holding the app's SDK key can send reports: a flood must not become a flood of pushes.
      const hour = await countInWindow(tx, `push-feedback:${app.id}`, hourMs);
      if (hour.count > feedbackPushesPerAppHour) return [];
      const facts: MessageFacts = {
        kind: "feedback",
        app: app.title,
        tag: report.data.tag,
        description: report.data.description,
        reportId: report.data.id,
        url: `/dashboard/feedback/${report.data.id}`,
      };
      return [{ listeners: await this.deps.audience.whoTriages(app, tx), facts: () => facts }];
    }
    // store_upload.finished: to whoever started it while they still see the app; without one, to those who look after it.
    const upload = (event.data.store_upload ?? {}) as { started_by?: unknown; store?: unknown };
    const startedBy = z.number().int().safeParse(upload.started_by);
    const seeing = await this.deps.audience.whoSees(app, tx);
    const listeners = startedBy.success
      ? seeing.filter((listener) => listener.userId === startedBy.data)
      : await this.deps.audience.whoTriages(app, tx);
    const store = String(upload.store ?? "");
    const facts: MessageFacts = {
      kind: "store_upload",
      app: app.title,
      store: storeNames[store] ?? (store || "the store"),
      version: version ? `${version.version} (${version.buildNumber})` : "",
      appId: app.id,
      url: `/dashboard/apps/${app.id}`,
    };
    return [{ listeners, facts: () => facts }];
  }

  /** One delivery job per subscription of each listener still within their hourly allowance. */
  private async queue(
    listeners: Listener[],
    facts: (listener: Listener) => MessageFacts,
    tx: Database,
  ): Promise<number> {
    const subscriptions = await listSubscriptionsOfUsers(
      tx,
      listeners.map((listener) => listener.userId),
    );
    const byUser = new Map(listeners.map((listener) => [listener.userId, listener]));
    const allowed = new Map<number, boolean>();
    let queued = 0;
    for (const subscription of subscriptions) {
      const listener = byUser.get(subscription.userId);
      if (!listener) continue;
      if (!allowed.has(listener.userId)) {
        const hour = await countInWindow(tx, `push-user:${listener.userId}`, hourMs);
        allowed.set(listener.userId, hour.count <= pushesPerUserPerHour);
      }
      if (!allowed.get(listener.userId)) continue;
      await this.deps.jobs.send(
        this.deps.deliverJob,
        { subscriptionId: subscription.id, facts: facts(listener) },
        { tx },
      );
      queued += 1;
    }
    return queued;
  }
}
