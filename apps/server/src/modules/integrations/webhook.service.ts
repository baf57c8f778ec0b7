import { randomBytes } from "node:crypto";
import type {
  Webhook,
  WebhookCreateInput,
  WebhookDelivery,
  WebhookListItem,
  WebhookUpdateInput,
} from "@tarmac/contracts";
import { AppError } from "../../http/errors.ts";
import type { PageParams } from "../../http/pagination.ts";
import type { SecretBox } from "../../platform/crypto/secret-box.ts";
import type { Database } from "../../platform/db/client.ts";
import type { ApplicationService } from "../application/application.service.ts";
import type { MembershipService } from "../organization/membership.service.ts";
import type { DeliveryService } from "./delivery.service.ts";
import { assertEndpointUrl } from "./endpoint-url.ts";
import { can, type IntegrationAction } from "./integrations.policy.ts";
import {
  deleteWebhook,
  findWebhook,
  insertWebhook,
  listWebhooks,
  updateWebhook,
  type WebhookRow,
} from "./webhook.repo.ts";

/** A Standard Webhooks secret: `whsec_` and 24 random bytes in base64. */
function newSigningSecret(): string {
  return `whsec_${randomBytes(24).toString("base64")}`;
}

export interface WebhookServiceDeps {
  db: Database;
  membership: MembershipService;
  applications: ApplicationService;
  box: SecretBox;
  deliveries: DeliveryService;
  allowPrivateTargets: boolean;
  /** Whether the organization has a store developer account: store upload events exist only then. */
  storeEventsOffered: (organizationId: number) => Promise<boolean>;
}

const storeEvents = new Set<string>(["store_upload.finished", "store_upload.failed"]);

/** Webhooks of an organization or one of its apps: settings, secrets, tests and their delivery log. */
export class WebhookService {
  constructor(private readonly deps: WebhookServiceDeps) {}

  private async authorize(actorUserId: number, organizationId: number, action: IntegrationAction) {
    const member = await this.deps.membership.getMembership(actorUserId, organizationId);
    if (!can(member, action)) throw AppError.forbidden();
  }

  /** The webhook, when the caller may act on it; another organization's is "not found". */
  private async accessible(actorUserId: number, id: number, action: IntegrationAction): Promise<WebhookRow> {
    const hook = await findWebhook(this.deps.db, id);
    if (!hook) throw AppError.notFound();
    const member = await this.deps.membership.findMembership(actorUserId, hook.organizationId);
    if (!member) throw AppError.notFound();
    if (!can(member, action)) throw AppError.forbidden();
    return hook;
  }

  async list(
    actorUserId: number,
    organizationId: number,
    filter: { app?: number; includeOrg?: boolean },
    page: PageParams,
  ): Promise<{ count: number; results: WebhookListItem[] }> {
    await this.authorize(actorUserId, organizationId, "webhook:read");
    const found = await listWebhooks(
      this.deps.db,
      organizationId,
      {
        ...(filter.app ? { applicationId: filter.app } : {}),
        includeOrganizationWide: filter.includeOrg ?? false,
      },
      { limit: page.pageSize, offset: page.offset },
    );
    // The organization's page names each webhook's app; the app's own tab knows it already.
    const titles = await this.deps.applications.findAppTitles(
      organizationId,
      found.rows.flatMap((row) => (row.applicationId === null ? [] : [row.applicationId])),
    );
    return {
      count: found.count,
      results: found.rows.map((row) => ({
        ...this.present(row),
        app_title: row.applicationId === null ? null : (titles.get(row.applicationId) ?? null),
      })),
    };
  }

  /** Store upload events newly chosen need a developer account (ones a webhook has stay). */
  private async assertEventsOffered(organizationId: number, events: string[], had: string[]) {
    const added = events.filter((event) => storeEvents.has(event) && !had.includes(event));
    if (added.length && !(await this.deps.storeEventsOffered(organizationId))) {
      throw AppError.validation({
        events: [
          "Store upload events need a developer account: add one in the organization's store settings first.",
        ],
      });
    }
  }

  async get(actorUserId: number, id: number): Promise<Webhook> {
    return this.present(await this.accessible(actorUserId, id, "webhook:read"));
  }

  async create(actorUserId: number, input: WebhookCreateInput): Promise<Webhook> {
    await this.authorize(actorUserId, input.organization, "webhook:manage");
    if (input.app !== null && !(await this.deps.applications.findApp(input.organization, input.app))) {
      throw AppError.validation({ app: ["This app does not belong to the organization."] });
    }
    await assertEndpointUrl(input.url, "url", this.deps.allowPrivateTargets);
    await this.assertEventsOffered(input.organization, input.events, []);
    const secret = newSigningSecret();
    const row = await insertWebhook(this.deps.db, {
      organizationId: input.organization,
      applicationId: input.app,
      urlSealed: this.deps.box.seal(input.url),
      format: input.format,
      events: [...new Set(input.events)],
      enabled: input.enabled,
      description: input.description,
      secretSealed: this.deps.box.seal(secret),
      createdBy: actorUserId,
    });
    return { ...this.present(row), secret };
  }

  async update(actorUserId: number, id: number, input: WebhookUpdateInput): Promise<Webhook> {
    const hook = await this.accessible(actorUserId, id, "webhook:manage");
    await assertEndpointUrl(input.url, "url", this.deps.allowPrivateTargets);
    await this.assertEventsOffered(hook.organizationId, input.events, hook.events);
    const updated = await updateWebhook(this.deps.db, hook.id, {
      urlSealed: this.deps.box.seal(input.url),
      format: input.format,
      events: [...new Set(input.events)],
      enabled: input.enabled,
      description: input.description,
      // Switching it back on is the answer to whatever switched it off.
      ...(input.enabled ? { disabledReason: "" } : {}),
    });
    if (!updated) throw AppError.notFound();
    return this.present(updated);
  }

  async remove(actorUserId: number, id: number): Promise<void> {
    const hook = await this.accessible(actorUserId, id, "webhook:manage");
    await deleteWebhook(this.deps.db, hook.id);
  }

  /** A new signing secret, shown once; the old one stops signing at once. */
  async rotateSecret(actorUserId: number, id: number): Promise<Webhook> {
    const hook = await this.accessible(actorUserId, id, "webhook:manage");
    const secret = newSigningSecret();
    const updated = await updateWebhook(this.deps.db, hook.id, { secretSealed: this.deps.box.seal(secret) });
    if (!updated) throw AppError.notFound();
    return { ...this.present(updated), secret };
  }

  /** Sends a `webhook.test` event now and answers how the endpoint took it (no retries). */
  async sendTest(actorUserId: number, id: number): Promise<WebhookDelivery> {
    const hook = await this.accessible(actorUserId, id, "webhook:manage");
    const app = hook.applicationId
      ? await this.deps.applications.findApp(hook.organizationId, hook.applicationId)
      : null;
    return this.deps.deliveries.sendTest({
      organizationId: hook.organizationId,
      webhookId: hook.id,
      app,
      target: "webhook",
    });
  }

  async deliveries(actorUserId: number, id: number, page: PageParams) {
    const hook = await this.accessible(actorUserId, id, "webhook:read");
    return this.deps.deliveries.log({ webhookId: hook.id }, page);
  }

  /**
   * Sends a delivery again as it was (same `webhook-id`, so receivers can tell) and, if that
   * fails, on the retry schedule. Works for webhooks and app chat channels alike.
   */
  async redeliver(actorUserId: number, deliveryId: number): Promise<WebhookDelivery> {
    const original = await this.deps.deliveries.findDelivery(deliveryId);
    if (!original) throw AppError.notFound();
    const member = await this.deps.membership.findMembership(actorUserId, original.organizationId);
    if (!member) throw AppError.notFound();
    if (!can(member, "webhook:manage")) throw AppError.forbidden();
    const row = await this.deps.deliveries.createAndAttempt({
      organizationId: original.organizationId,
      webhookId: original.webhookId,
      applicationId: original.applicationId,
      target: original.target,
      eventId: original.eventId,
      eventType: original.eventType,
      payload: original.payload,
      test: original.test,
      redeliveryOf: original.redeliveryOf ?? original.id,
    });
    return this.deps.deliveries.present(row);
  }

  private present(row: WebhookRow): Webhook {
    return {
      id: row.id,
      organization: row.organizationId,
      app: row.applicationId,
      url: this.deps.box.open(row.urlSealed),
      format: row.format as Webhook["format"],
      events: row.events as Webhook["events"],
      enabled: row.enabled,
      description: row.description,
      disabled_reason: row.disabledReason,
      created_at: row.createdAt.toISOString(),
      updated_at: row.updatedAt.toISOString(),
    };
  }
}
