// Webhooks and the app's chat channel: what Tarmac tells the outside world, and how it went.
import type {
  ChatChannelListItem,
  ChatWebhook,
  ChatWebhookInput,
  Page,
  Webhook,
  WebhookCreateInput,
  WebhookDelivery,
  WebhookEventType,
  WebhookFormat,
  WebhookListItem,
  WebhookUpdateInput,
} from "@tarmac/contracts";
import { webhookEventTypes, webhookFormats } from "@tarmac/contracts";
import { api } from "./client.ts";

export type {
  ChatChannelListItem,
  ChatWebhook,
  Webhook,
  WebhookDelivery,
  WebhookEventType,
  WebhookFormat,
  WebhookListItem,
};
export { webhookEventTypes, webhookFormats };

/** Where a delivery log belongs: a webhook, or the app's chat channel. */
export type LogOwner = { webhook: number } | { chatOfApp: number };

export const integrationKeys = {
  /** `appId` null: the organization's page, every app's webhooks. */
  webhooks: (orgId: number, appId: number | null) => ["webhooks", orgId, appId] as const,
  chatChannels: (orgId: number) => ["chat-channel", "org", orgId] as const,
  chat: (appId: number) => ["chat-channel", appId] as const,
  deliveries: (owner: LogOwner) =>
    ["webhook-deliveries", "webhook" in owner ? `w${owner.webhook}` : `c${owner.chatOfApp}`] as const,
};

/** The app's webhooks and the organization's (which cover the app too); one page holds them. */
export async function listAppWebhooks(orgId: number, appId: number): Promise<WebhookListItem[]> {
  const page = await api.get<Page<WebhookListItem>>("/api/webhooks/", {
    query: { org: orgId, app: appId, include_org: 1, page_size: 100 },
  });
  return page.results;
}

/** Every webhook of the organization, whichever app it is about; one page holds them. */
export async function listOrganizationWebhooks(orgId: number): Promise<WebhookListItem[]> {
  const page = await api.get<Page<WebhookListItem>>("/api/webhooks/", {
    query: { org: orgId, page_size: 100 },
  });
  return page.results;
}

/** The organization's apps that post new builds to a chat channel. */
export async function listChatChannels(orgId: number): Promise<ChatChannelListItem[]> {
  const page = await api.get<Page<ChatChannelListItem>>("/api/slackwebhooks/", {
    query: { org: orgId, page_size: 100 },
  });
  return page.results;
}

export function createWebhook(input: WebhookCreateInput) {
  return api.post<Webhook>("/api/webhooks/", input);
}

export function updateWebhook(id: number, input: WebhookUpdateInput) {
  return api.put<Webhook>(`/api/webhooks/${id}/`, input);
}

export function deleteWebhook(id: number) {
  return api.delete<null>(`/api/webhooks/${id}/`);
}

export function rotateWebhookSecret(id: number) {
  return api.post<Webhook>(`/api/webhooks/${id}/rotate-secret/`);
}

export function sendWebhookTest(id: number) {
  return api.post<WebhookDelivery>(`/api/webhooks/${id}/test/`);
}

export function fetchChatChannel(appId: number) {
  return api.get<ChatWebhook>(`/api/slackwebhooks/${appId}/`);
}

export function saveChatChannel(appId: number, input: ChatWebhookInput) {
  return api.put<ChatWebhook>(`/api/slackwebhooks/${appId}/`, input);
}

export function removeChatChannel(appId: number) {
  return api.delete<null>(`/api/slackwebhooks/${appId}/`);
}

export function sendChatTest(appId: number) {
  return api.post<WebhookDelivery>(`/api/slackwebhooks/${appId}/test/`);
}

export function fetchDeliveries(owner: LogOwner) {
  const path =
    "webhook" in owner
      ? `/api/webhooks/${owner.webhook}/deliveries/`
      : `/api/slackwebhooks/${owner.chatOfApp}/deliveries/`;
  return api.get<Page<WebhookDelivery>>(path, { query: { page_size: 20 } });
}

export function redeliver(deliveryId: number) {
  return api.post<WebhookDelivery>(`/api/webhook-deliveries/${deliveryId}/redeliver/`);
}
