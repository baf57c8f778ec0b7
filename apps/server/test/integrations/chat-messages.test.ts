import { describe, expect, it } from "vitest";
import { fixture, uploadNewApp } from "../builds/upload-helpers.ts";
import { createApp } from "../helpers/app-factories.ts";
import { authHeader } from "../helpers/factories.ts";
import { createOrganization } from "../helpers/org-factories.ts";
import { createHook, deliveriesOf, endpoint, receiver, t, until, useWebhookWorld } from "./webhook-world.ts";

useWebhookWorld();

describe("chat messages", () => {
  it("posts each new build of the app to its Slack channel with the version, notes and an install button", async () => {
    const { organization, owner } = await createOrganization(t);
    const app = await createApp(t, organization.id, { title: "Rocket" });
    const slack = endpoint();
    const saved = await t.app.inject({
      method: "PUT",
      url: `/api/slackwebhooks/${app.id}/`,
      headers: authHeader(owner.token),
      payload: { slack_webhook: slack.url, slack_channel: "#builds" },
    });
    expect(saved.json()).toEqual({
      app: app.id,
      slack_webhook: slack.url,
      slack_channel: "#builds",
      chat_format: "slack",
    });
    const record = (
      await t.app.inject({ url: `/api/applications/${app.id}/`, headers: authHeader(owner.token) })
    ).json();
    expect(record.slack_webhook).toBe(slack.url);
    const { uploadVersion } = await import("../builds/upload-helpers.ts");
    const uploaded = await uploadVersion(
      t,
      owner.token,
      { id: app.id, organization: organization.id },
      fixture("android/modern.apk"),
      {
        whats_new: "Faster <launch> & dark mode",
      },
    );
    expect(uploaded.statusCode).toBe(201);
    await until(async () => receiver.at(slack.path).length === 1);
    const message = JSON.parse(receiver.at(slack.path)[0]?.body ?? "{}");
    expect(message.channel).toBe("#builds");
    expect(message.blocks[0].text.text).toContain("*New build ready to install: Rocket*");
    expect(message.blocks[1].text.text).toContain("Faster &lt;launch&gt; &amp; dark mode");
    expect(message.blocks[2].elements[0]).toMatchObject({
      type: "button",
      url: expect.stringMatching(/\/getapp\//),
    });
    const readLog = async () =>
      (
        await t.app.inject({
          url: `/api/slackwebhooks/${app.id}/deliveries/`,
          headers: authHeader(owner.token),
        })
      ).json();
    // The receiver has the message; the worker writes the outcome right after its answer.
    await until(async () => (await readLog()).results[0]?.status === "succeeded");
    expect((await readLog()).results[0]).toMatchObject({ status: "succeeded", event_type: "build.ready" });
    const removed = await t.app.inject({
      method: "DELETE",
      url: `/api/slackwebhooks/${app.id}/`,
      headers: authHeader(owner.token),
    });
    expect(removed.statusCode).toBe(204);
    expect(
      (await t.app.inject({ url: `/api/slackwebhooks/${app.id}/`, headers: authHeader(owner.token) })).json(),
    ).toMatchObject({
      slack_webhook: "",
      chat_format: null,
    });
  });

  it("speaks Microsoft Teams' Adaptive Cards and Discord's embeds", async () => {
    const { organization, owner } = await createOrganization(t);
    const app = await createApp(t, organization.id, { title: "Comet" });
    const teams = endpoint([{ status: 202 }]);
    const discord = endpoint([{ status: 204 }]);
    await t.app.inject({
      method: "PUT",
      url: `/api/slackwebhooks/${app.id}/`,
      headers: authHeader(owner.token),
      payload: { slack_webhook: teams.url, chat_format: "teams" },
    });
    const test = await t.app.inject({
      method: "POST",
      url: `/api/slackwebhooks/${app.id}/test/`,
      headers: authHeader(owner.token),
    });
    expect(test.json()).toMatchObject({ status: "succeeded", response_status: 202 });
    const card = JSON.parse(receiver.at(teams.path)[0]?.body ?? "{}");
    expect(card.type).toBe("message");
    expect(card.attachments[0].contentType).toBe("application/vnd.microsoft.card.adaptive");
    expect(card.attachments[0].content).toMatchObject({ type: "AdaptiveCard", version: "1.4" });
    expect(card.attachments[0].content.body[0].text).toBe("Test message: Comet");

    const hook = (
      await createHook(owner.token, {
        organization: organization.id,
        url: discord.url,
        format: "discord",
        events: ["build.ready"],
      })
    ).json();
    await uploadNewApp(t, owner.token, organization.id, fixture("android/modern.apk"), { title: "Nova" });
    await until(async () => receiver.at(discord.path).length === 1);
    const embed = JSON.parse(receiver.at(discord.path)[0]?.body ?? "{}");
    expect(receiver.at(discord.path)[0]?.headers["webhook-signature"]).toBeUndefined();
    expect(embed.allowed_mentions).toEqual({ parse: [] });
    expect(embed.embeds[0]).toMatchObject({
      title: "New build ready to install: Nova",
      url: expect.stringMatching(/\/getapp\//),
    });
    // The receiver has the message a moment before the worker records how it went.
    await until(async () => (await deliveriesOf(owner.token, hook.id)).results[0]?.status !== "pending");
    expect((await deliveriesOf(owner.token, hook.id)).results[0]).toMatchObject({
      status: "succeeded",
      response_status: 204,
    });
  });
});
