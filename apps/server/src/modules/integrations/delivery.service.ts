import { randomBytes } from "node:crypto";
import type { WebhookDelivery } from "@tarmac/contracts";
import { Webhook as StandardWebhook } from "standardwebhooks";
import type { PageParams } from "../../http/pagination.ts";
import type { SecretBox } from "../../platform/crypto/secret-box.ts";
import type { Database } from "../../platform/db/client.ts";
import type { DomainEvent } from "../../platform/events/domain-events.ts";
import type { JobQueue } from "../../platform/jobs/job-queue.ts";
import type { ApplicationRow, ApplicationService } from "../application/application.service.ts";
import type { BuildRecordService } from "../application/build-record.service.ts";
import type { VersionPresenter } from "../application/version.presenter.ts";
import type { OrganizationService } from "../organization/organization.service.ts";
import { type ChatFormat, chatFormatOf, chatMessage } from "./chat-messages.ts";
import {
  claimDelivery,
  type DeliveryRow,
  findDelivery,
  insertDeliveries,
  listDeliveries,
  listStrandedDeliveries,
  type NewDelivery,
  recordAttempt,
} from "./delivery.repo.ts";
import { appSummary, type EventPayload, eventPayload, testPayload } from "./event-payload.ts";
import { deliverJob } from "./integrations.jobs.ts";
import { nextAttemptAt } from "./retry-schedule.ts";
import { findWebhook, listSubscribers, updateWebhook } from "./webhook.repo.ts";
import { postJson } from "./webhook-sender.ts";

/** The event the app's own chat channel is told about: a new build anyone can install. */
const appChatEvent = "build.ready";

export interface DeliveryDeps {
  db: Database;
  jobs: JobQueue;
  /** Seals webhook URLs and signing secrets. */
  box: SecretBox;
  /** Opens the app's chat webhook URL, sealed by the application module. */
  slackWebhookBox: SecretBox;
  applications: ApplicationService;
  builds: BuildRecordService;
  versions: VersionPresenter;
  organizations: OrganizationService;
  installPage: (app: { id: number; organizationId: number }) => Promise<string>;
  publicUrl: string;
  timeoutSeconds: number;
  allowPrivateTargets: boolean;
}

interface Endpoint {
  url: string;
  format: "standard" | ChatFormat;
  secret: string | null;
  channel: string;
}

/**
 * Turns events into deliveries and makes their attempts. A delivery row is written with the job
 * that wakes it, in one transaction, and each attempt's outcome with the job of the next one: a
 * process dying anywhere leaves either a job to run or a row the redrive finds.
 */
export class DeliveryService {
  /** The job that wakes a delivery and runs its attempt. */
  readonly deliverJob = deliverJob((deliveryId) => this.attempt(deliveryId));

  constructor(private readonly deps: DeliveryDeps) {}

  /** A lock on an attempt lapses only when its process died: well past the attempt's deadline. */
  get lockSeconds(): number {
    return this.deps.timeoutSeconds * 2 + 5;
  }

  async fanOut(event: DomainEvent): Promise<void> {
    const { db } = this.deps;
    const app = event.applicationId
      ? await this.deps.applications.findApp(event.organizationId, event.applicationId)
      : null;
    // The app was deleted since: its webhooks went with it, nobody is left to tell.
    if (event.applicationId && !app) return;
    const payload = await this.payloadOf(event, app);
    const now = new Date();
    const common = {
      organizationId: event.organizationId,
      applicationId: event.applicationId,
      eventId: event.id,
      eventType: event.type,
      payload,
      nextAttemptAt: now,
    };
    await db.transaction(async (tx) => {
      const hooks = await listSubscribers(tx, event.organizationId, event.applicationId, event.type);
      const rows: NewDelivery[] = hooks.map((hook) => ({
        ...common,
        webhookId: hook.id,
        target: "webhook",
        dedupeKey: `${event.id}:webhook:${hook.id}`,
      }));
      if (app?.slackWebhookSealed && event.type === appChatEvent) {
        rows.push({
          ...common,
          webhookId: null,
          target: "app-chat",
          dedupeKey: `${event.id}:app-chat:${app.id}`,
        });
      }
      for (const row of await insertDeliveries(tx, rows)) await this.wake(row.id, tx);
    });
  }

  /** A delivery made by hand (a test event, a redelivery); its first attempt is made before answering. */
  async createAndAttempt(values: NewDelivery): Promise<DeliveryRow> {
    const [row] = await insertDeliveries(this.deps.db, [{ ...values, nextAttemptAt: new Date() }]);
    const created = row as DeliveryRow;
    return (await this.attempt(created.id)) ?? created;
  }

  /** One attempt, when the delivery is due and no other process holds it; null when it was not made. */
  async attempt(deliveryId: number): Promise<DeliveryRow | null> {
    const { db } = this.deps;
    const row = await claimDelivery(db, deliveryId, this.lockSeconds);
    if (!row) return null;
    const endpoint = await this.endpointOf(row);
    if (!endpoint) {
      return recordAttempt(db, row.id, {
        status: "failed",
        nextAttemptAt: null,
        responseStatus: null,
        responseBody: "",
        durationMs: null,
        error: "The endpoint was removed or switched off before this attempt.",
      });
    }
    const result = await this.send(row, endpoint);
    const ok = result.status !== null && result.status >= 200 && result.status < 300;
    const gone = result.status === 410 && row.webhookId !== null;
    const next = ok || gone || row.test ? null : nextAttemptAt(row.attempts + 1, new Date());
    const error =
      result.error ||
      (result.status !== null && result.status >= 300 && result.status < 400
        ? "The endpoint answered with a redirect; redirects are not followed."
        : "");
    return db.transaction(async (tx) => {
      const recorded = await recordAttempt(tx, row.id, {
        status: ok ? "succeeded" : next ? "pending" : "failed",
        nextAttemptAt: next,
        responseStatus: result.status,
        responseBody: result.body,
        durationMs: result.durationMs,
        error,
      });
      if (gone && row.webhookId !== null) {
        await updateWebhook(tx, row.webhookId, {
          enabled: false,
          disabledReason: "The endpoint answered 410 Gone, so the webhook was switched off.",
        });
      }
      if (next) await this.wake(row.id, tx, Math.max(1, Math.ceil((next.getTime() - Date.now()) / 1000)));
      return recorded;
    });
  }

  /** Wakes pending deliveries whose job was lost with a process; returns how many. */
  async redrive(): Promise<number> {
    const overdueBefore = new Date(Date.now() - this.lockSeconds * 2 * 1000);
    const stranded = await listStrandedDeliveries(this.deps.db, overdueBefore, 500);
    for (const { id } of stranded) await this.wake(id, this.deps.db);
    return stranded.length;
  }

  /** Sends a `webhook.test` event to a webhook or an app's chat channel now (no retries). */
  async sendTest(endpoint: {
    organizationId: number;
    webhookId: number | null;
    app: ApplicationRow | null;
    target: "webhook" | "app-chat";
  }): Promise<WebhookDelivery> {
    const titles = await this.deps.organizations.getTitles([endpoint.organizationId]);
    const payload = testPayload(
      { id: endpoint.organizationId, title: titles.get(endpoint.organizationId) ?? "" },
      endpoint.app ? appSummary(endpoint.app, this.deps.publicUrl) : null,
    );
    const row = await this.createAndAttempt({
      organizationId: endpoint.organizationId,
      webhookId: endpoint.webhookId,
      applicationId: endpoint.app?.id ?? null,
      target: endpoint.target,
      eventId: `msg_test_${randomBytes(12).toString("hex")}`,
      eventType: payload.type,
      payload,
      test: true,
    });
    return this.present(row);
  }

  /** A webhook's log or an app chat channel's, newest first, presented. */
  async log(owner: Parameters<typeof listDeliveries>[1], page: PageParams) {
    const found = await listDeliveries(this.deps.db, owner, { limit: page.pageSize, offset: page.offset });
    return { count: found.count, results: found.rows.map((row) => this.present(row)) };
  }

  present(row: DeliveryRow): WebhookDelivery {
    return {
      id: row.id,
      event_id: row.eventId,
      event_type: row.eventType,
      status: row.status as WebhookDelivery["status"],
      attempts: row.attempts,
      next_attempt_at: row.status === "pending" ? (row.nextAttemptAt?.toISOString() ?? null) : null,
      response_status: row.responseStatus,
      response_body: row.responseBody,
      duration_ms: row.durationMs,
      error: row.error,
      test: row.test,
      redelivery_of: row.redeliveryOf,
      created_at: row.createdAt.toISOString(),
      updated_at: row.updatedAt.toISOString(),
    };
  }

  findDelivery(id: number): Promise<DeliveryRow | null> {
    return findDelivery(this.deps.db, id);
  }

  private async wake(deliveryId: number, tx: Database, startAfterSeconds?: number): Promise<void> {
    await this.deps.jobs.send(
      this.deliverJob,
      { deliveryId },
      { tx, ...(startAfterSeconds ? { startAfterSeconds } : {}) },
    );
  }

  private async send(row: DeliveryRow, endpoint: Endpoint) {
    const payload = row.payload as EventPayload;
    const body = JSON.stringify(
      endpoint.format === "standard" ? payload : chatMessage(endpoint.format, payload, endpoint.channel),
    );
    const headers: Record<string, string> = {};
    if (endpoint.secret) {
      // Standard Webhooks: the id stays the same on every attempt, the timestamp is the attempt's.
      const now = new Date();
      headers["webhook-id"] = row.eventId;
      headers["webhook-timestamp"] = String(Math.floor(now.getTime() / 1000));
      headers["webhook-signature"] = new StandardWebhook(endpoint.secret).sign(row.eventId, now, body);
    }
    return postJson(endpoint.url, body, headers, {
      timeoutMs: this.deps.timeoutSeconds * 1000,
      allowPrivateTargets: this.deps.allowPrivateTargets,
    });
  }

  private async endpointOf(row: DeliveryRow): Promise<Endpoint | null> {
    if (row.target === "app-chat") {
      if (row.applicationId === null) return null;
      const app = await this.deps.applications.findApp(row.organizationId, row.applicationId);
      if (!app?.slackWebhookSealed) return null;
      const url = this.deps.slackWebhookBox.open(app.slackWebhookSealed);
      return { url, format: chatFormatOf(url, app.chatFormat), secret: null, channel: app.slackChannel };
    }
    if (row.webhookId === null) return null;
    const hook = await findWebhook(this.deps.db, row.webhookId);
    // A test or a redelivery asked for by hand goes out even while the webhook is switched off.
    if (!hook || (!hook.enabled && !row.test && row.redeliveryOf === null)) return null;
    const url = this.deps.box.open(hook.urlSealed);
    if (hook.format === "standard") {
      return { url, format: "standard", secret: this.deps.box.open(hook.secretSealed), channel: "" };
    }
    return { url, format: hook.format as ChatFormat, secret: null, channel: "" };
  }

  private async payloadOf(event: DomainEvent, app: ApplicationRow | null): Promise<EventPayload> {
    const version =
      event.versionId !== null
        ? await this.deps.builds.findVersion(event.organizationId, event.versionId)
        : null;
    const titles = await this.deps.organizations.getTitles([event.organizationId]);
    return eventPayload({
      event,
      organizationTitle: titles.get(event.organizationId) ?? "",
      app,
      version,
      iconUrl: version ? await this.deps.versions.iconUrl(version.iconKey) : null,
      installUrl: app && version ? await this.deps.installPage(app) : null,
      publicUrl: this.deps.publicUrl,
    });
  }
}
