import type { ChatWebhook, Webhook, WebhookDelivery } from "@tarmac/contracts";
import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { openTab, serveDistribution } from "../../../test/app-page-api.ts";
import { pageOf } from "../../../test/application-fixtures.ts";
import { makeWebhook } from "../../../test/integration-fixtures.ts";
import { useSignedInTestSession } from "../../../test/render.tsx";

const HOOK = makeWebhook({ id: 4, app: 1 });

const DELIVERY: WebhookDelivery = {
  id: 9,
  event_id: "msg_1",
  event_type: "build.ready",
  status: "failed",
  attempts: 8,
  next_attempt_at: null,
  response_status: 500,
  response_body: "boom",
  duration_ms: 42,
  error: "",
  test: false,
  redelivery_of: null,
  created_at: "2026-11-02T10:00:00Z",
  updated_at: "2026-11-02T10:00:00Z",
};

const NO_CHAT: ChatWebhook = { app: 1, slack_webhook: "", slack_channel: "", chat_format: null };

describe("the app's Integrations tab", () => {
  useSignedInTestSession();

  it("adds a webhook and shows its secret once", async () => {
    let hooks: Webhook[] = [];
    const calls = serveDistribution({
      "GET /api/slackwebhooks/1/": { status: 200, body: NO_CHAT },
      "GET /api/webhooks/?org=7&app=1&include_org=1&page_size=100": () => ({
        status: 200,
        body: pageOf(hooks),
      }),
      "POST /api/webhooks/": () => {
        hooks = [HOOK];
        return { status: 201, body: { ...HOOK, secret: "whsec_c2VjcmV0" } };
      },
    });
    const { user } = await openTab("Integrations");
    expect(await screen.findByText("No webhook is set up for this app yet.")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Add webhook" }));
    const dialog = await screen.findByRole("dialog", { name: "Add webhook" });
    await user.type(within(dialog).getByLabelText(/^Endpoint URL/), HOOK.url);
    await user.click(within(dialog).getByLabelText("Build uploaded"));
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    expect((await screen.findByTestId("webhook-secret")).textContent).toBe("whsec_c2VjcmV0");
    expect(calls.find((call) => call.method === "POST")?.body).toEqual({
      url: HOOK.url,
      format: "standard",
      events: ["build.ready", "build.uploaded"],
      enabled: true,
      description: "",
      organization: 7,
      app: 1,
    });
    await user.click(screen.getByRole("button", { name: "Done" }));
    expect(await screen.findByText(HOOK.url)).toBeTruthy();
    expect(screen.queryByTestId("webhook-secret")).toBeNull();
  });

  it("shows a webhook's deliveries and redelivers one", async () => {
    const calls = serveDistribution({
      "GET /api/slackwebhooks/1/": { status: 200, body: NO_CHAT },
      "GET /api/webhooks/?org=7&app=1&include_org=1&page_size=100": { status: 200, body: pageOf([HOOK]) },
      "GET /api/webhooks/4/deliveries/?page_size=20": { status: 200, body: pageOf([DELIVERY]) },
      "POST /api/webhook-deliveries/9/redeliver/": {
        status: 200,
        body: {
          ...DELIVERY,
          id: 10,
          status: "succeeded",
          attempts: 1,
          response_status: 200,
          redelivery_of: 9,
        },
      },
    });
    const { user } = await openTab("Integrations");
    await user.click(await screen.findByRole("button", { name: "Show deliveries" }));
    const log = await screen.findByRole("table", { name: `Deliveries to ${HOOK.url}` });
    const row = await within(log).findByTestId("delivery-row");
    expect(row.textContent).toContain("Failed");
    expect(row.textContent).toContain("Attempts: 8");
    expect(row.textContent).toContain("500 · 42 ms");
    await user.click(within(row).getByRole("button", { name: "Redeliver" }));
    expect(await screen.findByText("Delivered again.")).toBeTruthy();
    expect(
      calls.some(
        (call) => call.method === "POST" && call.url.endsWith("/api/webhook-deliveries/9/redeliver/"),
      ),
    ).toBe(true);
  });

  it("saves the chat channel and reports a refused test message", async () => {
    let chat: ChatWebhook = NO_CHAT;
    const calls = serveDistribution({
      "GET /api/slackwebhooks/1/": () => ({ status: 200, body: chat }),
      "GET /api/webhooks/?org=7&app=1&include_org=1&page_size=100": { status: 200, body: pageOf([]) },
      "PUT /api/slackwebhooks/1/": () => {
        chat = {
          app: 1,
          slack_webhook: "https://discord.com/api/webhooks/1/x",
          slack_channel: "",
          chat_format: "discord",
        };
        return { status: 200, body: chat };
      },
      "GET /api/slackwebhooks/1/deliveries/?page_size=20": { status: 200, body: pageOf([]) },
      "POST /api/slackwebhooks/1/test/": {
        status: 200,
        body: {
          ...DELIVERY,
          test: true,
          attempts: 1,
          response_status: 404,
          response_body: "Unknown Webhook",
        },
      },
    });
    const { user } = await openTab("Integrations");
    const form = await screen.findByRole("form", { name: "Chat notifications" });
    await user.type(
      within(form).getByLabelText(/^Incoming webhook URL/),
      "https://discord.com/api/webhooks/1/x",
    );
    await user.click(within(form).getByRole("button", { name: "Save" }));
    expect((await screen.findByTestId("chat-status")).textContent).toBe("New builds are posted to Discord.");
    expect(calls.find((call) => call.method === "PUT")?.body).toEqual({
      slack_webhook: "https://discord.com/api/webhooks/1/x",
      slack_channel: "",
      chat_format: "auto",
    });
    await user.click(await screen.findByRole("button", { name: "Send test event" }));
    await waitFor(() =>
      expect(screen.getByText(/The test event was not accepted: HTTP 404 Unknown Webhook/)).toBeTruthy(),
    );
  });
});
