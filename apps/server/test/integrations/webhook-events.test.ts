import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { fixture, preload, setLimits } from "../builds/upload-helpers.ts";
import { androidFeedbackBody } from "../feedback/sdk-requests.ts";
import { createApp, createVersion } from "../helpers/app-factories.ts";
import { authHeader } from "../helpers/factories.ts";
import { pngImage } from "../helpers/images.ts";
import { addMember, createOrganization } from "../helpers/org-factories.ts";
import { organizations } from "../helpers/tables.ts";
import { createHook, endpoint, receiver, t, until, useWebhookWorld } from "./webhook-world.ts";

useWebhookWorld();

describe("webhooks", () => {
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
