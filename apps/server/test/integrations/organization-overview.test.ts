// The organization's page of webhooks and chat channels: every app's at once, for its admins only.
import { describe, expect, it } from "vitest";
import { createApp } from "../helpers/app-factories.ts";
import { authHeader } from "../helpers/factories.ts";
import { addMember, createOrganization } from "../helpers/org-factories.ts";
import { createHook, endpoint, t, useWebhookWorld } from "./webhook-world.ts";

useWebhookWorld();

const list = async (token: string, url: string) => {
  const response = await t.app.inject({ url, headers: authHeader(token) });
  return { status: response.statusCode, body: response.json() };
};

describe("the organization's integrations", () => {
  it("lists every app's webhooks with the app's title, and the apps that post to a chat channel", async () => {
    const { organization, owner } = await createOrganization(t);
    const rocket = await createApp(t, organization.id, { title: "Rocket" });
    const quiet = await createApp(t, organization.id, { title: "Quiet" });
    const forRocket = (
      await createHook(owner.token, {
        organization: organization.id,
        app: rocket.id,
        url: endpoint().url,
        events: ["build.ready"],
      })
    ).json();
    const forAll = (
      await createHook(owner.token, {
        organization: organization.id,
        url: endpoint().url,
        events: ["build.ready"],
      })
    ).json();
    const chatUrl = endpoint().url;
    const channel = await t.app.inject({
      method: "PUT",
      url: `/api/slackwebhooks/${rocket.id}/`,
      headers: authHeader(owner.token),
      payload: { slack_webhook: chatUrl, slack_channel: "#builds" },
    });
    expect(channel.statusCode).toBe(200);

    const hooks = await list(owner.token, `/api/webhooks/?org=${organization.id}`);
    expect(
      hooks.body.results.map((hook: { id: number; app_title: string | null }) => [hook.id, hook.app_title]),
    ).toEqual([
      [forAll.id, null],
      [forRocket.id, "Rocket"],
    ]);
    const chats = await list(owner.token, `/api/slackwebhooks/?org=${organization.id}`);
    expect(chats.body).toMatchObject({
      count: 1,
      results: [{ app: rocket.id, app_title: "Rocket", slack_webhook: chatUrl, slack_channel: "#builds" }],
    });
    expect(chats.body.results.map((row: { app: number }) => row.app)).not.toContain(quiet.id);
  });

  it("shows another organization's owner nothing, and refuses members who are not admins", async () => {
    const { organization, owner } = await createOrganization(t);
    const app = await createApp(t, organization.id, { title: "Private" });
    await createHook(owner.token, {
      organization: organization.id,
      app: app.id,
      url: endpoint().url,
      events: ["build.ready"],
    });
    await t.app.inject({
      method: "PUT",
      url: `/api/slackwebhooks/${app.id}/`,
      headers: authHeader(owner.token),
      payload: { slack_webhook: endpoint().url },
    });
    const stranger = await createOrganization(t);
    const mobile = await addMember(t, organization.id, 3);
    for (const path of ["/api/webhooks/", "/api/slackwebhooks/"]) {
      const theirs = await list(stranger.owner.token, `${path}?org=${organization.id}`);
      expect(theirs.status, path).toBe(404);
      expect(JSON.stringify(theirs.body), path).not.toContain("Private");
      // Their own organization's list holds only their own.
      expect(
        (await list(stranger.owner.token, `${path}?org=${stranger.organization.id}`)).body,
        path,
      ).toMatchObject({
        count: 0,
        results: [],
      });
      expect((await list(mobile.token, `${path}?org=${organization.id}`)).status, path).toBe(403);
      expect((await t.app.inject({ url: `${path}?org=${organization.id}` })).statusCode, path).toBe(401);
    }
  });
});
