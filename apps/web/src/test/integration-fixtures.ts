import type { WebhookListItem } from "@tarmac/contracts";

/** A webhook as the lists answer it: for every app of organization 7 unless told otherwise. */
export function makeWebhook(overrides: Partial<WebhookListItem> = {}): WebhookListItem {
  return {
    id: 1,
    organization: 7,
    app: null,
    app_title: null,
    url: "https://ci.acme.test/tarmac",
    format: "standard",
    events: ["build.ready"],
    enabled: true,
    description: "",
    disabled_reason: "",
    created_at: "2026-11-01T10:00:00Z",
    updated_at: "2026-11-01T10:00:00Z",
    ...overrides,
  };
}
