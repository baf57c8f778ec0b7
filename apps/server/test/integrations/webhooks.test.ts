import { eq } from "drizzle-orm";
import { Webhook as StandardWebhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixture, preload, setLimits, uploadNewApp } from "../builds/upload-helpers.ts";
import { androidFeedbackBody } from "../feedback/sdk-requests.ts";
import { createApp, createVersion } from "../helpers/app-factories.ts";
import { authHeader } from "../helpers/factories.ts";
import { pngImage } from "../helpers/images.ts";
import { addMember, createOrganization, waitFor } from "../helpers/org-factories.ts";
import { organizations, webhookDeliveries } from "../helpers/tables.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";
import { WebhookReceiver } from "../helpers/webhook-receiver.ts";

let t: TestApp;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await WebhookReceiver.start();
  t = await createTestApp({ ALLOW_PRIVATE_NETWORK_TARGETS: "true", WEBHOOK_TIMEOUT_SECONDS: "1" });
  await t.platform.jobs.work({ pollingIntervalSeconds: 0.5 });
}, 60_000);

afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

/** Waits until `check` holds (deliveries arrive from the worker in the background). */
const until = (check: () => boolean | Promise<boolean>, timeoutMs?: number) =>
  waitFor(async () => ((await check()) ? true : undefined), timeoutMs);

let pathSequence = 0;
/** A fresh path on the receiver, answering as scripted. */
const endpoint = (answers: Parameters<WebhookReceiver["script"]>[1] = [{ status: 200, body: "ok" }]) => {
  pathSequence += 1;
  const path = `/hook-${pathSequence}`;
  return { path, url: receiver.script(path, answers) };
};

const createHook = async (token: string, body: Record<string, unknown>) => {
  const response = await t.app.inject({
    method: "POST",
    url: "/api/webhooks/",
    headers: authHeader(token),
    payload: body,
  });
  return response;
};

const deliveriesOf = async (token: string, hookId: number) =>
  (await t.app.inject({ url: `/api/webhooks/${hookId}/deliveries/`, headers: authHeader(token) })).json();

/** Checks a received request's Standard Webhooks signature with the given secret; returns the payload. */
const verified = (secret: string, request: { headers: Record<string, unknown>; body: string }) =>
  new StandardWebhook(secret).verify(request.body, {
    "webhook-id": String(request.headers["webhook-id"]),
    "webhook-timestamp": String(request.headers["webhook-timestamp"]),
    "webhook-signature": String(request.headers["webhook-signature"]),
  }) as { type: string; data: Record<string, unknown> & { build: Record<string, unknown> } };

describe("webhooks", () => {
  it("signs every event as Standard Webhooks; the secret is shown once and rotates", async () => {
    const { organization, owner } = await createOrganization(t, { title: "Acme" });
    const target = endpoint();
    const created = await createHook(owner.token, {
      organization: organization.id,
      url: target.url,
      events: ["build.uploaded", "build.ready"],
    });
    expect(created.statusCode).toBe(201);
    const hook = created.json();
    expect(hook).toMatchObject({ format: "standard", enabled: true, app: null, url: target.url });
    expect(hook.secret).toMatch(/^whsec_/);
    const shown = (
      await t.app.inject({ url: `/api/webhooks/${hook.id}/`, headers: authHeader(owner.token) })
    ).json();
    expect(shown.secret).toBeUndefined();

    const app = await uploadNewApp(t, owner.token, organization.id, fixture("android/modern.apk"), {
      title: "Rocket",
    });
    await until(async () => receiver.at(target.path).length === 2);
    const [first, second] = receiver.at(target.path).map((request) => verified(hook.secret, request));
    expect([first?.type, second?.type].sort()).toEqual(["build.ready", "build.uploaded"]);
    expect(first?.data).toMatchObject({
      organization: { id: organization.id, title: "Acme" },
      app: { id: app.id, title: "Rocket", platform: "Android", environment: "Production" },
      build: { version: expect.any(String), file_name: expect.stringMatching(/\.apk$/) },
    });
    expect(first?.data.build.install_url).toMatch(/^http:\/\/tarmac\.test\/getapp\//);
    const log = await deliveriesOf(owner.token, hook.id);
    expect(log.count).toBe(2);
    expect(log.results[0]).toMatchObject({
      status: "succeeded",
      attempts: 1,
      response_status: 200,
      response_body: "ok",
    });

    // After rotation the old secret no longer verifies what is sent.
    const rotated = (
      await t.app.inject({
        method: "POST",
        url: `/api/webhooks/${hook.id}/rotate-secret/`,
        headers: authHeader(owner.token),
      })
    ).json();
    expect(rotated.secret).not.toBe(hook.secret);
    const test = await t.app.inject({
      method: "POST",
      url: `/api/webhooks/${hook.id}/test/`,
      headers: authHeader(owner.token),
    });
    expect(test.json()).toMatchObject({ status: "succeeded", test: true, event_type: "webhook.test" });
    const last = receiver.at(target.path).at(-1) as { headers: Record<string, unknown>; body: string };
    expect(verified(rotated.secret, last).type).toBe("webhook.test");
    expect(() => verified(hook.secret, last)).toThrow();
  });

  it("tells each webhook only the events it chose, of its organization and its app", async () => {
    const { organization, owner } = await createOrganization(t);
    const other = await createOrganization(t);
    const app = await createApp(t, organization.id);
    const sibling = await createApp(t, organization.id);
    const deletedOnly = endpoint();
    const ofSibling = endpoint();
    const otherOrg = endpoint();
    for (const [token, body] of [
      [owner.token, { organization: organization.id, url: deletedOnly.url, events: ["build.deleted"] }],
      [
        owner.token,
        { organization: organization.id, app: sibling.id, url: ofSibling.url, events: ["build.deleted"] },
      ],
      [
        other.owner.token,
        { organization: other.organization.id, url: otherOrg.url, events: ["build.deleted"] },
      ],
    ] as const) {
      expect((await createHook(token, body)).statusCode).toBe(201);
    }
    const version = await createVersion(t, app, { version: "3.1.0", buildNumber: "31" });
    const removed = await t.app.inject({
      method: "DELETE",
      url: `/api/versions/${version.id}/`,
      headers: authHeader(owner.token),
    });
    expect(removed.statusCode).toBe(204);
    await until(async () => receiver.at(deletedOnly.path).length === 1);
    const body = JSON.parse(receiver.at(deletedOnly.path)[0]?.body ?? "{}");
    expect(body).toMatchObject({
      type: "build.deleted",
      data: { app: { id: app.id }, build: { id: version.id, version: "3.1.0", build_number: "31" } },
    });
    // Give a wrongly fanned-out delivery the time to arrive before checking none did.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(receiver.at(ofSibling.path)).toHaveLength(0);
    expect(receiver.at(otherOrg.path)).toHaveLength(0);
  });

  it("retries a failing endpoint on the schedule and gives up after the last attempt", async () => {
    const { organization, owner } = await createOrganization(t);
    const flaky = endpoint([
      { status: 500, body: "down" },
      { status: 200, body: "back" },
    ]);
    const broken = endpoint([{ status: 503, body: "still down" }]);
    const hookFor = async (url: string): Promise<{ id: number }> =>
      (await createHook(owner.token, { organization: organization.id, url, events: ["build.ready"] })).json();
    const flakyHook = await hookFor(flaky.url);
    const brokenHook = await hookFor(broken.url);
    await uploadNewApp(t, owner.token, organization.id, fixture("android/modern.apk"));
    await until(async () => (await deliveriesOf(owner.token, brokenHook.id)).results[0]?.attempts === 1);
    const pending = (await deliveriesOf(owner.token, brokenHook.id)).results[0];
    expect(pending).toMatchObject({ status: "pending", response_status: 503, response_body: "still down" });
    // The first retry comes five seconds (a tenth either way) after the failure.
    const wait = new Date(pending.next_attempt_at).getTime() - new Date(pending.updated_at).getTime();
    expect(wait).toBeGreaterThanOrEqual(4400);
    expect(wait).toBeLessThanOrEqual(5600);
    await until(async () => receiver.at(flaky.path).length === 2, 15_000);
    const [failed, retried] = receiver.at(flaky.path);
    expect(retried?.headers["webhook-id"]).toBe(failed?.headers["webhook-id"]);
    await until(
      async () => (await deliveriesOf(owner.token, flakyHook.id)).results[0]?.status === "succeeded",
    );
    const flakyLog = await deliveriesOf(owner.token, flakyHook.id);
    expect(flakyLog.results[0]).toMatchObject({ status: "succeeded", attempts: 2, response_body: "back" });

    // The broken one: run its remaining attempts now instead of waiting a day for them.
    const { deliveries } = t.services;
    const [row] = await t.database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.webhookId, brokenHook.id));
    for (let round = 0; round < 20; round += 1) {
      const current = await deliveries.findDelivery(row?.id as number);
      if (current?.status !== "pending") break;
      await deliveries.attempt(current.id);
    }
    const final = (await deliveriesOf(owner.token, brokenHook.id)).results[0];
    expect(final).toMatchObject({ status: "failed", attempts: 8, next_attempt_at: null });
    expect(receiver.at(broken.path)).toHaveLength(8);
  });

  it("switches a webhook off when its endpoint answers 410, and follows no redirect", async () => {
    const { organization, owner } = await createOrganization(t);
    const gone = endpoint([{ status: 410, body: "gone" }]);
    const landing = endpoint();
    const moved = endpoint([{ status: 302, location: landing.url }]);
    const goneHook = (
      await createHook(owner.token, { organization: organization.id, url: gone.url, events: ["build.ready"] })
    ).json();
    const movedHook = (
      await createHook(owner.token, {
        organization: organization.id,
        url: moved.url,
        events: ["build.ready"],
      })
    ).json();
    await uploadNewApp(t, owner.token, organization.id, fixture("android/modern.apk"));
    await until(async () => receiver.at(gone.path).length === 1 && receiver.at(moved.path).length === 1);
    await until(async () => (await deliveriesOf(owner.token, goneHook.id)).results[0]?.status === "failed");
    const off = (
      await t.app.inject({ url: `/api/webhooks/${goneHook.id}/`, headers: authHeader(owner.token) })
    ).json();
    expect(off).toMatchObject({ enabled: false, disabled_reason: expect.stringContaining("410") });
    await until(async () => (await deliveriesOf(owner.token, movedHook.id)).results[0]?.attempts === 1);
    expect((await deliveriesOf(owner.token, movedHook.id)).results[0]).toMatchObject({
      status: "pending",
      response_status: 302,
      error: expect.stringContaining("redirects are not followed"),
    });
    expect(receiver.at(landing.path)).toHaveLength(0);
    // Switching it back on clears the reason.
    const on = await t.app.inject({
      method: "PUT",
      url: `/api/webhooks/${goneHook.id}/`,
      headers: authHeader(owner.token),
      payload: { url: gone.url, events: ["build.ready"], enabled: true },
    });
    expect(on.json()).toMatchObject({ enabled: true, disabled_reason: "" });
  });

  it("gives up on an endpoint that does not answer in time, and redelivers with the same id", async () => {
    const { organization, owner } = await createOrganization(t);
    const slow = endpoint(["hang", { status: 204 }]);
    const hook = (
      await createHook(owner.token, {
        organization: organization.id,
        url: slow.url,
        events: ["build.uploaded"],
      })
    ).json();
    const test = (
      await t.app.inject({
        method: "POST",
        url: `/api/webhooks/${hook.id}/test/`,
        headers: authHeader(owner.token),
      })
    ).json();
    expect(test).toMatchObject({
      status: "failed",
      attempts: 1,
      response_status: null,
      error: "No answer within 1 s.",
    });
    const again = await t.app.inject({
      method: "POST",
      url: `/api/webhook-deliveries/${test.id}/redeliver/`,
      headers: authHeader(owner.token),
    });
    expect(again.json()).toMatchObject({
      status: "succeeded",
      response_status: 204,
      redelivery_of: test.id,
      event_id: test.event_id,
    });
    const [first, second] = receiver.at(slow.path);
    expect(second?.headers["webhook-id"]).toBe(first?.headers["webhook-id"]);
    expect((await deliveriesOf(owner.token, hook.id)).count).toBe(2);
  });

  it("tells of builds sent to testers, installs and refused uploads (once an hour)", async () => {
    const { organization, owner } = await createOrganization(t);
    const target = endpoint();
    await createHook(owner.token, {
      organization: organization.id,
      url: target.url,
      events: ["build.sent_to_testers", "tester.installed", "plan.limit_reached"],
    });
    const app = await createApp(t, organization.id);
    const version = await createVersion(t, app);
    const as = authHeader(owner.token);
    const tester = (
      await t.app.inject({
        method: "POST",
        url: "/api/testers/",
        headers: as,
        payload: { email: "tess@example.test", app: app.id },
      })
    ).json();
    const sent = await t.app.inject({
      method: "POST",
      url: `/api/app-teams/${app.id}/`,
      headers: as,
      payload: { app2os: [app.id], apk_version: version.id, testers_id: [tester.id] },
    });
    expect(sent.statusCode).toBe(202);
    const link = (await t.app.inject({ url: `/api/distributions/?app=${app.id}`, headers: as })).json()
      .results[0];
    const page = (await t.app.inject({ url: `/api/getapp/${link.key}/` })).json();
    const download = await t.app.inject({
      url: new URL(page.builds[0].install.url).pathname + new URL(page.builds[0].install.url).search,
      headers: { "user-agent": "Mozilla/5.0 (Linux; Android 14; Pixel 8)" },
    });
    expect(download.statusCode).toBe(200);
    await setLimits(t, organization.id, { buildLimit: 1 });
    for (let i = 0; i < 2; i += 1) {
      const refused = await preload(
        t,
        owner.token,
        { organization: organization.id },
        fixture("android/modern.apk"),
      );
      expect(refused.json()).toMatchObject({ error_code: 7 });
    }
    await until(async () => receiver.at(target.path).length >= 3);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const types = receiver.at(target.path).map((request) => JSON.parse(request.body));
    expect(types.map((body) => body.type).sort()).toEqual([
      "build.sent_to_testers",
      "plan.limit_reached",
      "tester.installed",
    ]);
    expect(types.find((body) => body.type === "build.sent_to_testers").data).toMatchObject({
      recipients: 1,
      build: { id: version.id },
    });
    expect(types.find((body) => body.type === "tester.installed").data).toMatchObject({
      kind: "download",
      platform: "android",
    });
    expect(types.find((body) => body.type === "plan.limit_reached").data).toMatchObject({ error_code: 7 });
  });

  it("tells of feedback sent from the app", async () => {
    const { organization, owner } = await createOrganization(t);
    const target = endpoint();
    await createHook(owner.token, {
      organization: organization.id,
      url: target.url,
      events: ["feedback.received"],
    });
    const app = await createApp(t, organization.id, { title: "Talky" });
    const [org] = await t.database.db
      .select()
      .from(organizations)
      .where(eq(organizations.id, organization.id));
    const body = androidFeedbackBody(pngImage(10, 10), {
      app_key: app.appKey,
      sdk_key: org?.sdkKey as string,
      tag: "bug",
      description: "Crash on launch",
      email: "",
      build_version: "1.0",
      system_version: "14",
      device_name: "Pixel 8",
      device_uudid: "d1",
      navigation_stack: "",
    });
    expect((await t.app.inject({ method: "POST", url: "/api/feedback-mobile/", ...body })).statusCode).toBe(
      201,
    );
    await until(async () => receiver.at(target.path).length === 1);
    expect(JSON.parse(receiver.at(target.path)[0]?.body ?? "{}")).toMatchObject({
      type: "feedback.received",
      data: { app: { id: app.id, title: "Talky" }, feedback: { tag: "bug", description: "Crash on launch" } },
    });
  });

  it("is for owners and admins of the organization only, and refuses bad URLs", async () => {
    const { organization, owner } = await createOrganization(t);
    const other = await createOrganization(t);
    const mobile = await addMember(t, organization.id, 3);
    const target = endpoint();
    const hook = (
      await createHook(owner.token, {
        organization: organization.id,
        url: target.url,
        events: ["build.ready"],
      })
    ).json();
    expect(
      (
        await createHook(mobile.token, {
          organization: organization.id,
          url: target.url,
          events: ["build.ready"],
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (await t.app.inject({ url: `/api/webhooks/${hook.id}/`, headers: authHeader(mobile.token) }))
        .statusCode,
    ).toBe(403);
    expect(
      (await t.app.inject({ url: `/api/webhooks/${hook.id}/`, headers: authHeader(other.owner.token) }))
        .statusCode,
    ).toBe(404);
    expect(
      (
        await t.app.inject({
          url: `/api/webhooks/?org=${organization.id}`,
          headers: authHeader(other.owner.token),
        })
      ).statusCode,
    ).toBe(404);
    const foreignApp = await createApp(t, other.organization.id);
    const wrongApp = await createHook(owner.token, {
      organization: organization.id,
      app: foreignApp.id,
      url: target.url,
      events: ["build.ready"],
    });
    expect(wrongApp.json()).toEqual({ app: ["This app does not belong to the organization."] });
    for (const [url, message] of [
      ["ftp://files.example.test/hook", "Enter an http:// or https:// URL."],
      ["https://user:pw@example.test/hook", "The URL must not contain a user name or password."],
      ["not a url", "Enter a valid URL."],
    ]) {
      const refused = await createHook(owner.token, {
        organization: organization.id,
        url,
        events: ["build.ready"],
      });
      expect(refused.json()).toEqual({ url: [message] });
    }
    expect(
      (await createHook(owner.token, { organization: organization.id, url: target.url, events: [] })).json(),
    ).toEqual({
      events: ["Choose at least one event."],
    });
    const listed = (
      await t.app.inject({ url: `/api/webhooks/?org=${organization.id}`, headers: authHeader(owner.token) })
    ).json();
    expect(listed.results.map((row: { id: number }) => row.id)).toEqual([hook.id]);
    const removed = await t.app.inject({
      method: "DELETE",
      url: `/api/webhooks/${hook.id}/`,
      headers: authHeader(owner.token),
    });
    expect(removed.statusCode).toBe(204);
  });
});

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
    const log = (
      await t.app.inject({
        url: `/api/slackwebhooks/${app.id}/deliveries/`,
        headers: authHeader(owner.token),
      })
    ).json();
    expect(log.results[0]).toMatchObject({ status: "succeeded", event_type: "build.ready" });
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
    expect((await deliveriesOf(owner.token, hook.id)).results[0]).toMatchObject({
      status: "succeeded",
      response_status: 204,
    });
  });
});
