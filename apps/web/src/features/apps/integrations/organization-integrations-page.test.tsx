import type { ChatChannelListItem } from "@tarmac/contracts";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { makeProfile } from "../../../test/account-fixtures.ts";
import { makeApp, pageOf } from "../../../test/application-fixtures.ts";
import { makeWebhook } from "../../../test/integration-fixtures.ts";
import { pickOption } from "../../../test/mantine-actions.ts";
import { type ApiReply, renderApp, stubApi, useSignedInTestSession } from "../../../test/render.tsx";

const FOR_EVERY_APP = makeWebhook({ id: 1, url: "https://ci.acme.test/all" });
const FOR_ROCKET = makeWebhook({ id: 2, app: 5, app_title: "Rocket", url: "https://ci.acme.test/rocket" });
const CHANNEL: ChatChannelListItem = {
  app: 6,
  app_title: "Comet",
  app_type: 1,
  environment: "Beta",
  slack_webhook: "https://hooks.slack.test/services/T1/B2/x",
  slack_channel: "#releases",
  chat_format: "slack",
};

function serveIntegrations(extra: Record<string, ApiReply | (() => ApiReply)> = {}) {
  return stubApi({
    "GET /api/profiles/": { status: 200, body: [makeProfile()] },
    "GET /api/webhooks/?org=7&page_size=100": { status: 200, body: pageOf([FOR_EVERY_APP, FOR_ROCKET]) },
    "GET /api/slackwebhooks/?org=7&page_size=100": { status: 200, body: pageOf([CHANNEL]) },
    ...extra,
  });
}

describe("the organization's webhooks and integrations page", () => {
  useSignedInTestSession();

  it("lists every app's webhooks and chat channels, each linked to its app's settings", async () => {
    serveIntegrations();
    const user = userEvent.setup();
    renderApp("/dashboard");
    const menu = await screen.findByRole("navigation", { name: "Main menu" });
    await user.click(within(menu).getByRole("button", { name: "Organization" }));
    await user.click(within(menu).getByRole("link", { name: "Webhooks and integrations" }));
    expect(await screen.findByRole("heading", { name: "Webhooks and integrations", level: 1 })).toBeTruthy();

    const cards = await screen.findAllByTestId("webhook-card");
    expect(cards.map((card) => within(card).getByText(/^https:/).textContent)).toEqual([
      FOR_EVERY_APP.url,
      FOR_ROCKET.url,
    ]);
    expect(within(cards[0] as HTMLElement).getByText("All apps")).toBeTruthy();
    expect(
      within(cards[1] as HTMLElement)
        .getByRole("link", { name: "Integrations of Rocket" })
        .getAttribute("href"),
    ).toBe("/dashboard/apps/5?tab=integrations");

    const channel = await screen.findByTestId("chat-channel-card");
    expect(within(channel).getByText(CHANNEL.slack_webhook)).toBeTruthy();
    expect(within(channel).getByText("#releases")).toBeTruthy();
    expect(within(channel).getByRole("link", { name: "Integrations of Comet" }).getAttribute("href")).toBe(
      "/dashboard/apps/6?tab=integrations",
    );
  });

  it("adds a webhook for an app chosen from the organization's apps", async () => {
    const created = makeWebhook({ id: 3, app: 5, app_title: "Rocket", url: "https://ci.acme.test/new" });
    const calls = serveIntegrations({
      "GET /api/applications/?org=7&page=1&page_size=20": {
        status: 200,
        body: pageOf([makeApp({ id: 5, project_title: "Rocket", title: "Rocket", app_type: 0 })]),
      },
      "POST /api/webhooks/": { status: 201, body: { ...created, secret: "whsec_bmV3" } },
    });
    const user = userEvent.setup();
    renderApp("/dashboard/organization/integrations");
    await user.click(await screen.findByRole("button", { name: "Add webhook" }));
    const dialog = await screen.findByRole("dialog", { name: "Add webhook" });
    await user.type(within(dialog).getByLabelText(/^Endpoint URL/), created.url);
    const apps = within(dialog).getByRole("combobox", { name: "Which apps" });
    // The organization's apps arrive after the dialog opens.
    await waitFor(() => expect(calls.some((call) => call.url.startsWith("/api/applications/"))).toBe(true));
    await pickOption(user, apps, "Rocket · Android · production");
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    expect((await screen.findByTestId("webhook-secret")).textContent).toBe("whsec_bmV3");
    await waitFor(() =>
      expect(calls.find((call) => call.method === "POST")?.body).toMatchObject({
        organization: 7,
        app: 5,
        url: created.url,
      }),
    );
  });
});
