import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { fixture, uploadNewApp } from "../builds/upload-helpers.ts";
import { createApp, createVersion } from "../helpers/app-factories.ts";
import { authHeader } from "../helpers/factories.ts";
import { createOrganization } from "../helpers/org-factories.ts";
import { webhookDeliveries } from "../helpers/tables.ts";
import {
  createHook,
  deliveriesOf,
  endpoint,
  receiver,
  t,
  until,
  useWebhookWorld,
  verified,
} from "./webhook-world.ts";

useWebhookWorld();

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
    for (let round = 0; round < 60; round += 1) {
      const current = await deliveries.findDelivery(row?.id as number);
      if (current?.status !== "pending") break;
      // The worker may hold the delivery for its own scheduled retry: wait for that attempt.
      if (!(await deliveries.attempt(current.id))) await new Promise((resolve) => setTimeout(resolve, 100));
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
});
