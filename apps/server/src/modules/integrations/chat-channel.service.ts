import type { ChatChannelListItem, ChatWebhook, ChatWebhookInput, WebhookDelivery } from "@tarmac/contracts";
import { AppError } from "../../http/errors.ts";
import type { PageParams } from "../../http/pagination.ts";
import type { SecretBox } from "../../platform/crypto/secret-box.ts";
import type { ApplicationRow, ApplicationService } from "../application/application.service.ts";
import type { ApplicationUpdateService } from "../application/application-update.service.ts";
import type { MembershipService } from "../organization/membership.service.ts";
import { chatFormatOf } from "./chat-messages.ts";
import type { DeliveryService } from "./delivery.service.ts";
import { assertEndpointUrl } from "./endpoint-url.ts";
import { can } from "./integrations.policy.ts";

/**
 * An app's chat channel (`/api/slackwebhooks/{app}/`): the incoming-webhook URL kept on the app
 * (Updraft's `slack_webhook`/`slack_channel`), told about every build that becomes installable.
 */
export class ChatChannelService {
  constructor(
    private readonly deps: {
      applications: ApplicationService;
      membership: MembershipService;
      updates: ApplicationUpdateService;
      slackWebhookBox: SecretBox;
      deliveries: DeliveryService;
      allowPrivateTargets: boolean;
    },
  ) {}

  /** The organization's apps that post to a chat channel: its admins' overview (like its webhooks). */
  async list(
    actorUserId: number,
    organizationId: number,
    page: PageParams,
  ): Promise<{ count: number; results: ChatChannelListItem[] }> {
    // Someone outside the organization learns nothing (404); a member who is no admin, 403.
    const member = await this.deps.membership.getMembership(actorUserId, organizationId);
    if (!can(member, "webhook:read")) throw AppError.forbidden();
    const found = await this.deps.applications.listChatChannelApps(organizationId, {
      limit: page.pageSize,
      offset: page.offset,
    });
    return {
      count: found.count,
      results: found.rows.map((app) => ({
        ...this.present(app),
        app_title: app.title,
        app_type: app.appType,
        environment: app.environment,
      })),
    };
  }

  async get(actorUserId: number, appId: number): Promise<ChatWebhook> {
    const { app } = await this.deps.applications.getAccessibleApp(actorUserId, appId, "app:update");
    return this.present(app);
  }

  async put(actorUserId: number, appId: number, input: ChatWebhookInput): Promise<ChatWebhook> {
    await this.deps.applications.getAccessibleApp(actorUserId, appId, "app:update");
    await assertEndpointUrl(input.slack_webhook, "slack_webhook", this.deps.allowPrivateTargets);
    await this.deps.updates.update(actorUserId, appId, {
      slack_webhook: input.slack_webhook,
      slack_channel: input.slack_channel,
      chat_format: input.chat_format,
    });
    return this.get(actorUserId, appId);
  }

  async remove(actorUserId: number, appId: number): Promise<void> {
    await this.deps.updates.update(actorUserId, appId, {
      slack_webhook: "",
      slack_channel: "",
      chat_format: "auto",
    });
  }

  /** Posts a test message to the channel now and answers how it went (no retries). */
  async sendTest(actorUserId: number, appId: number): Promise<WebhookDelivery> {
    const { app } = await this.deps.applications.getAccessibleApp(actorUserId, appId, "app:update");
    return this.deps.deliveries.sendTest({
      organizationId: app.organizationId,
      webhookId: null,
      app,
      target: "app-chat",
    });
  }

  async deliveries(actorUserId: number, appId: number, page: PageParams) {
    const { app } = await this.deps.applications.getAccessibleApp(actorUserId, appId, "app:update");
    return this.deps.deliveries.log({ chatOfApplicationId: app.id }, page);
  }

  private present(app: ApplicationRow): ChatWebhook {
    const url = app.slackWebhookSealed ? this.deps.slackWebhookBox.open(app.slackWebhookSealed) : "";
    return {
      app: app.id,
      slack_webhook: url,
      slack_channel: app.slackChannel,
      chat_format: url ? chatFormatOf(url, app.chatFormat) : null,
    };
  }
}
