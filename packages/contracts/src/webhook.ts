import { z } from "zod";
import { pageQuery } from "./common.ts";

/** What happened, as webhooks and chat messages name it (`type` of every payload). */
export const webhookEventTypes = [
  "build.uploaded",
  "build.ready",
  "build.deleted",
  "build.sent_to_testers",
  "tester.installed",
  "feedback.received",
  "store_upload.finished",
  "store_upload.failed",
  "plan.limit_reached",
] as const;
export type WebhookEventType = (typeof webhookEventTypes)[number];

/**
 * How a delivery is shaped: `standard` is a signed Standard Webhooks JSON post; the others are a
 * chat message in that service's incoming-webhook format (Slack blocks, a Teams Adaptive Card, a
 * Discord embed).
 */
export const webhookFormats = ["standard", "slack", "teams", "discord"] as const;
export type WebhookFormat = (typeof webhookFormats)[number];

export const webhook = z
  .object({
    id: z.number().int(),
    organization: z.number().int(),
    /** The app it is about; null: every app of the organization. */
    app: z.number().int().nullable(),
    url: z.string(),
    format: z.enum(webhookFormats),
    events: z.array(z.enum(webhookEventTypes)),
    enabled: z.boolean(),
    description: z.string(),
    /** Why it was switched off by Tarmac (the endpoint answered 410 Gone), or "". */
    disabled_reason: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
    /** The signing secret: only in the answer that created or rotated it. */
    secret: z.string().optional(),
  })
  .meta({ id: "Webhook" });
export type Webhook = z.infer<typeof webhook>;

/** A webhook as the organization's list shows it: with the title of its app (null: every app). */
export const webhookListItem = webhook
  .extend({ app_title: z.string().nullable() })
  .meta({ id: "WebhookListItem" });
export type WebhookListItem = z.infer<typeof webhookListItem>;

const longest = (length: number) => `Ensure this field has no more than ${length} characters.`;

const webhookSettings = {
  url: z.string().trim().min(1, "This field may not be blank.").max(2000, longest(2000)),
  format: z.enum(webhookFormats).default("standard"),
  events: z.array(z.enum(webhookEventTypes)).min(1, "Choose at least one event."),
  enabled: z.boolean().default(true),
  description: z.string().trim().max(200, longest(200)).default(""),
};

export const webhookCreateInput = z.object({
  organization: z.coerce.number().int().positive(),
  app: z.coerce.number().int().positive().nullable().default(null),
  ...webhookSettings,
});
export type WebhookCreateInput = z.infer<typeof webhookCreateInput>;

export const webhookUpdateInput = z.object(webhookSettings);
export type WebhookUpdateInput = z.infer<typeof webhookUpdateInput>;

export const webhookListQuery = pageQuery.extend({
  org: z.coerce.number().int().positive(),
  /** Only the webhooks of this app (and, with `include_org=1`, the organization-wide ones too). */
  app: z.coerce.number().int().positive().optional(),
  include_org: z.coerce.number().int().min(0).max(1).optional(),
});

export const webhookDeliveryStatuses = ["pending", "succeeded", "failed"] as const;

export const webhookDelivery = z
  .object({
    id: z.number().int(),
    /** The message id receivers see as `webhook-id`; the same on every attempt and redelivery. */
    event_id: z.string(),
    event_type: z.string(),
    status: z.enum(webhookDeliveryStatuses),
    attempts: z.number().int(),
    next_attempt_at: z.string().nullable(),
    response_status: z.number().int().nullable(),
    /** The first bytes (at most 1 KiB) of the last answer. */
    response_body: z.string(),
    duration_ms: z.number().int().nullable(),
    error: z.string(),
    test: z.boolean(),
    redelivery_of: z.number().int().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: "WebhookDelivery" });
export type WebhookDelivery = z.infer<typeof webhookDelivery>;

/** `GET/PUT /api/slackwebhooks/{app id}/`: the app's chat channel, told about every new build. */
export const chatWebhook = z
  .object({
    app: z.number().int(),
    slack_webhook: z.string(),
    slack_channel: z.string(),
    /** As chosen, or read from the URL's host when `auto`. */
    chat_format: z.enum(["slack", "teams", "discord"]).nullable(),
  })
  .meta({ id: "ChatWebhook" });
export type ChatWebhook = z.infer<typeof chatWebhook>;

/** `GET /api/slackwebhooks/?org=`: the organization's apps that post to a chat channel. */
export const chatChannelListQuery = pageQuery.extend({ org: z.coerce.number().int().positive() });
export const chatChannelListItem = chatWebhook
  .extend({ app_title: z.string(), app_type: z.number().int(), environment: z.string() })
  .meta({ id: "ChatChannelListItem" });
export type ChatChannelListItem = z.infer<typeof chatChannelListItem>;

export const chatWebhookInput = z.object({
  slack_webhook: z.string().trim().min(1, "This field may not be blank.").max(500, longest(500)),
  slack_channel: z.string().trim().max(100, longest(100)).default(""),
  /** Which service the URL belongs to; `auto` reads it from the URL. */
  chat_format: z.enum(["auto", "slack", "teams", "discord"]).default("auto"),
});
export type ChatWebhookInput = z.infer<typeof chatWebhookInput>;
