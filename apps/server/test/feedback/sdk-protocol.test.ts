import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp, createVersion } from "../helpers/app-factories.ts";
import { authHeader } from "../helpers/factories.ts";
import { jpegImage, pngImage } from "../helpers/images.ts";
import { addMember, createOrganization, waitFor } from "../helpers/org-factories.ts";
import { applications, feedbackItems, mailOutbox, organizations } from "../helpers/tables.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";
import { androidFeedbackBody, type FeedbackFields, iosFeedbackBody, jsonHeaders } from "./sdk-requests.ts";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  await t.platform.jobs.work({ pollingIntervalSeconds: 0.5 });
}, 60_000);
afterAll(() => t?.close());

/** An organization with an Android app whose newest released build is 1.4.2 (42). */
async function world() {
  const { organization, owner } = await createOrganization(t, { title: "Shaky" });
  const app = await createApp(t, organization.id, { title: "Shaker" });
  await createVersion(t, app, { version: "1.4.1", buildNumber: "41" });
  const newest = await createVersion(t, app, { version: "1.4.2", buildNumber: "42" });
  await t.database.db
    .update(applications)
    .set({ bundleId: "com.shaky.app" })
    .where(eq(applications.id, app.id));
  const [org] = await t.database.db.select().from(organizations).where(eq(organizations.id, organization.id));
  return { organization, owner, app, newest, sdkKey: org?.sdkKey as string };
}

const post = (url: string, body: object) =>
  t.app.inject({ method: "POST", url, headers: jsonHeaders, payload: JSON.stringify(body) });

const fieldsFor = (appKey: string, sdkKey: string, extra: Partial<FeedbackFields> = {}): FeedbackFields => ({
  app_key: appKey,
  sdk_key: sdkKey,
  tag: "bug",
  description: "The login button does nothing",
  email: "tess@example.test",
  build_version: "1.4.1",
  system_version: "14",
  device_name: "Pixel 8",
  device_uudid: "a1b2c3d4e5f60718",
  navigation_stack: "MainActivity > LoginFragment",
  ...extra,
});

describe("the update check, as the SDKs call it", () => {
  it("offers the newest released build to an older install, and its install page", async () => {
    const { app, newest, sdkKey } = await world();
    const older = await post("/api/check_last_version/", {
      sdk_key: sdkKey,
      app_key: app.appKey,
      version: "41",
    });
    expect(older.statusCode).toBe(200);
    expect(older.json()).toEqual({
      create_at: newest.createdAt.toISOString(),
      whats_new: newest.whatsNew,
      version: "1.4.2",
      your_version: "41",
      is_new_version: true,
      is_autoupdate_enabled: true,
    });
    const current = await post("/api/check_last_version/", {
      sdk_key: sdkKey,
      app_key: app.appKey,
      version: "42",
    });
    expect(current.json()).toMatchObject({ is_new_version: false, your_version: "42" });
    const url = await post("/api/get_last_version/", { sdk_key: sdkKey, app_key: app.appKey });
    expect(url.json().update_url).toMatch(/^http:\/\/tarmac\.test\/getapp\/[\w-]+$/);
  });

  it("answers wrong keys with a 404 the SDKs log, and says when auto-update is off", async () => {
    const { app, sdkKey } = await world();
    for (const body of [
      { sdk_key: "wrong", app_key: app.appKey, version: "1" },
      { sdk_key: sdkKey, app_key: "wrong", version: "1" },
      { version: "1" },
    ]) {
      const answer = await post("/api/check_last_version/", body);
      expect(answer.statusCode).toBe(404);
      expect(answer.json()).toEqual({ detail: "Unknown app_key or sdk_key." });
    }
    const other = await world();
    // Another organization's SDK key does not open this app.
    expect(
      (await post("/api/get_last_version/", { sdk_key: other.sdkKey, app_key: app.appKey })).statusCode,
    ).toBe(404);
    await t.database.db
      .update(applications)
      .set({ autoUpdateEnabled: false })
      .where(eq(applications.id, app.id));
    const off = await post("/api/check_last_version/", {
      sdk_key: sdkKey,
      app_key: app.appKey,
      version: "1",
    });
    expect(off.json()).toMatchObject({ is_new_version: true, is_autoupdate_enabled: false });
  });
});

describe("feedback from the app", () => {
  it("says whether feedback is on, with the error lists the Android SDK reads", async () => {
    const { app, sdkKey } = await world();
    expect(
      (await post("/api/feedback-mobile-enabled/", { sdk_key: sdkKey, app_key: app.appKey })).json(),
    ).toEqual({
      is_feedback_enabled: true,
      error_code: [],
      error_description: [],
    });
    expect(
      (await post("/api/feedback-mobile-enabled/", { sdk_key: "nope", app_key: app.appKey })).json(),
    ).toEqual({
      is_feedback_enabled: false,
      error_code: ["invalid_keys"],
      error_description: ["Unknown app_key or sdk_key."],
    });
  });

  it("takes the Android SDK's report: PNG first, then the fields", async () => {
    const { app, sdkKey, owner, organization } = await world();
    const body = androidFeedbackBody(pngImage(108, 240), fieldsFor(app.appKey, sdkKey));
    const sent = await t.app.inject({ method: "POST", url: "/api/feedback-mobile/", ...body });
    expect(sent.statusCode).toBe(201);
    expect(sent.json()).toMatchObject({
      tag: "bug",
      description: "The login button does nothing",
      build_version: "1.4.1",
      device_uudid: "a1b2c3d4e5f60718",
      navigation_stack: "MainActivity > LoginFragment",
      timestamp: expect.any(String),
      image: expect.stringMatching(/\/api\/feedback-mobile-data\/\d+\/$/),
    });
    const [row] = await t.database.db
      .select()
      .from(feedbackItems)
      .where(eq(feedbackItems.applicationId, app.id));
    expect(row).toMatchObject({ imageType: "image/png", imageWidth: 108, imageHeight: 240, status: 0 });
    expect(row?.imageKey).toMatch(new RegExp(`^orgs/${organization.id}/feedback/`));

    const listed = await t.app.inject({
      url: `/api/feedback-mobile-data/?app_id=${app.id}`,
      headers: authHeader(owner.token),
    });
    const item = listed.json().results[0];
    expect(item).toMatchObject({ app: app.id, app_title: "Shaker", tag: "bug", email: "tess@example.test" });
    expect(item.version).toMatchObject({ version: "1.4.1", build_version_number: "41" });
    const screenshot = await t.app.inject({ url: new URL(item.image).pathname + new URL(item.image).search });
    expect(screenshot.statusCode).toBe(200);
    expect(screenshot.rawPayload.subarray(0, 8).toString("latin1")).toBe("\x89PNG\r\n\x1a\n");
    // The organization's admins hear of it.
    await waitFor(async () => {
      const outbox = await t.app.inject({
        url: `/api/admin/outbox/?to=${encodeURIComponent(owner.user.email)}`,
        headers: authHeader((await adminToken()).token),
      });
      return outbox
        .json()
        .results.find((mail: { subject: string }) => mail.subject === "Shaker: new bug report");
    });
  });

  it("takes the iOS SDK's report: fields first, a JPEG under a malformed part header", async () => {
    const { app, sdkKey, owner } = await world();
    const body = iosFeedbackBody(
      jpegImage(1170, 2532),
      fieldsFor(app.appKey, sdkKey, { tag: "design", build_version: "42", device_name: "iPhone15,2" }),
    );
    const sent = await t.app.inject({ method: "POST", url: "/api/feedback-mobile/", ...body });
    expect(sent.statusCode).toBe(201);
    // Every field the iOS SDK decodes is a string.
    expect(Object.values(sent.json()).every((value) => typeof value === "string")).toBe(true);
    const item = (
      await t.app.inject({
        url: `/api/feedback-mobile-data/?app_id=${app.id}`,
        headers: authHeader(owner.token),
      })
    ).json().results[0];
    expect(item).toMatchObject({
      tag: "design",
      image_width: 1170,
      image_height: 2532,
      version: { version: "1.4.2" },
    });
  });

  it("mails each of an app's first 3 reports in an hour, then one digest of the rest", async () => {
    const { app, sdkKey, owner, organization } = await world();
    const admin = await addMember(t, organization.id, 2);
    const recipients = [owner.user.email, admin.user.email];
    for (let i = 0; i < 6; i += 1) {
      const body = androidFeedbackBody(
        pngImage(10, 10),
        fieldsFor(app.appKey, sdkKey, { description: `Report ${i}` }),
      );
      expect((await t.app.inject({ method: "POST", url: "/api/feedback-mobile/", ...body })).statusCode).toBe(
        201,
      );
    }
    // The digest waits for the hour's end; it is run here rather than waited for.
    const digests = await t.database.sql.executeSql(
      "select id, data, start_after > now() + interval '55 minutes' as at_hour_end from pgboss.job where name = 'feedback.mail-digest' and (data->>'applicationId')::bigint = $1",
      [app.id],
    );
    expect(digests.rows).toMatchObject([{ at_hour_end: true }]);
    const digest = t.job("feedback.mail-digest");
    const queued = digests.rows[0] as { id: string; data: unknown };
    // A second run (a retry) tells nothing twice.
    for (const retryCount of [0, 1]) {
      await digest.handler(digest.schema.parse(queued.data), { jobId: queued.id, retryCount });
    }
    await waitFor(async () => {
      const { rows } = await t.database.sql.executeSql(
        "select count(*)::int as pending from pgboss.job where name = $1 and state in ('created', 'retry', 'active') and data->>'to' = any($2::text[])",
        [t.platform.mail.jobs.send.name, recipients],
      );
      return (rows[0] as { pending: number }).pending === 0;
    });
    const mails = await t.database.db
      .select()
      .from(mailOutbox)
      .where(inArray(mailOutbox.toAddress, recipients));
    for (const to of recipients) {
      const theirs = mails.filter((mail) => mail.toAddress === to);
      expect(theirs.filter((mail) => mail.subject === "Shaker: new bug report")).toHaveLength(3);
      const digestMails = theirs.filter((mail) => mail.subject !== "Shaker: new bug report");
      expect(digestMails.map((mail) => mail.subject)).toEqual(["Shaker: 3 more feedback reports"]);
      expect(digestMails[0]?.textBody).toContain("3 more reports arrived for Shaker in the last hour.");
      expect(digestMails[0]?.textBody).toContain(`http://tarmac.test/dashboard/apps/${app.id}`);
    }
  });

  it("refuses wrong keys, switched-off feedback, a file that is no image, and floods", async () => {
    const { app, sdkKey } = await world();
    const send = (fields: FeedbackFields, image: Buffer = pngImage(10, 10)) =>
      t.app.inject({ method: "POST", url: "/api/feedback-mobile/", ...androidFeedbackBody(image, fields) });
    expect((await send(fieldsFor(app.appKey, "wrong"))).statusCode).toBe(404);
    const notImage = await send(fieldsFor(app.appKey, sdkKey), Buffer.from("<svg onload=alert(1)>"));
    expect(notImage.json()).toEqual({ image: ["Upload a PNG, JPEG or WebP screenshot."] });
    const huge = await send(fieldsFor(app.appKey, sdkKey), jpegImage(9000, 9000));
    expect(huge.json()).toEqual({ image: ["The screenshot is larger than 8192×8192 pixels."] });
    expect((await send(fieldsFor(app.appKey, sdkKey, { tag: "rant" }))).json()).toEqual({
      tag: ["Choose one of: bug, design, feedback."],
    });
    const statuses: number[] = [];
    for (let i = 0; i < 11; i += 1)
      statuses.push((await send(fieldsFor(app.appKey, sdkKey, { device_uudid: "flooder" }))).statusCode);
    expect(statuses.slice(0, 10).every((status) => status === 201)).toBe(true);
    expect(statuses[10]).toBe(429);
    await t.database.db
      .update(applications)
      .set({ feedbackEnabled: false })
      .where(eq(applications.id, app.id));
    const off = await send(fieldsFor(app.appKey, sdkKey, { device_uudid: "another" }));
    expect(off.statusCode).toBe(403);
    expect(off.json()).toEqual({ detail: "Feedback is turned off for this app." });
  });
});

describe("triage", () => {
  it("filters, orders, and changes status, assignee and note; other organizations see nothing", async () => {
    const { app, sdkKey, owner, organization } = await world();
    for (const [tag, device] of [
      ["bug", "Pixel 8"],
      ["design", "Galaxy S24"],
      ["feedback", "Pixel 7a"],
    ] as const) {
      const body = androidFeedbackBody(
        pngImage(10, 10),
        fieldsFor(app.appKey, sdkKey, { tag, device_name: device, device_uudid: device }),
      );
      expect((await t.app.inject({ method: "POST", url: "/api/feedback-mobile/", ...body })).statusCode).toBe(
        201,
      );
    }
    const as = authHeader(owner.token);
    const list = async (query: string) =>
      (await t.app.inject({ url: `/api/feedback-mobile-data/?${query}`, headers: as })).json();
    expect((await list(`app_id=${app.id}`)).results.map((item: { tag: string }) => item.tag)).toEqual([
      "feedback",
      "design",
      "bug",
    ]);
    expect(
      (await list(`app_id=${app.id}&ordering=created_at`)).results.map((item: { tag: string }) => item.tag),
    ).toEqual(["bug", "design", "feedback"]);
    expect((await list(`app_id=${app.id}&device=pixel`)).count).toBe(2);
    expect((await list(`app__organization=${organization.id}&tag=design`)).count).toBe(1);
    const first = (await list(`app_id=${app.id}&tag=bug`)).results[0];
    const manager = await addMember(t, organization.id, 4);
    const patched = await t.app.inject({
      method: "PATCH",
      url: `/api/feedback-mobile-data/${first.id}/`,
      headers: as,
      payload: { status: 2, assignee: manager.user.id, internal_note: "Fixed in 1.4.3" },
    });
    expect(patched.json()).toMatchObject({
      status: 2,
      assignee: { id: manager.user.id },
      internal_note: "Fixed in 1.4.3",
    });
    expect((await list(`app_id=${app.id}&status=4`)).count).toBe(2);
    expect((await list(`app_id=${app.id}&status=2`)).count).toBe(1);

    const stranger = await world();
    expect(
      (
        await t.app.inject({
          url: `/api/feedback-mobile-data/${first.id}/`,
          headers: authHeader(stranger.owner.token),
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await t.app.inject({
          url: `/api/feedback-mobile-data/?app__organization=${organization.id}`,
          headers: authHeader(stranger.owner.token),
        })
      ).statusCode,
    ).toBe(404);
    const tester = await addMember(t, organization.id, 5);
    expect(
      (
        await t.app.inject({
          url: `/api/feedback-mobile-data/?app__organization=${organization.id}`,
          headers: authHeader(tester.token),
        })
      ).statusCode,
    ).toBe(403);
    const outsider = await t.app.inject({
      method: "PATCH",
      url: `/api/feedback-mobile-data/${first.id}/`,
      headers: as,
      payload: { assignee: stranger.owner.user.id },
    });
    expect(outsider.json()).toEqual({ assignee: ["This person is not a member of the organization."] });
  });

  it("ignores ordering fields it does not know, even the names every object has", async () => {
    const { app, sdkKey, owner } = await world();
    const body = androidFeedbackBody(pngImage(10, 10), fieldsFor(app.appKey, sdkKey));
    expect((await t.app.inject({ method: "POST", url: "/api/feedback-mobile/", ...body })).statusCode).toBe(
      201,
    );
    for (const ordering of ["__proto__", "-constructor", "toString", "hasOwnProperty,-created_at", "nope"]) {
      const listed = await t.app.inject({
        url: `/api/feedback-mobile-data/?app_id=${app.id}&ordering=${encodeURIComponent(ordering)}`,
        headers: authHeader(owner.token),
      });
      expect(listed.statusCode, ordering).toBe(200);
      expect(listed.json().count).toBe(1);
    }
  });

  it("deletes the screenshots with the app", async () => {
    const { app, sdkKey, owner } = await world();
    const body = androidFeedbackBody(pngImage(10, 10), fieldsFor(app.appKey, sdkKey));
    await t.app.inject({ method: "POST", url: "/api/feedback-mobile/", ...body });
    const [row] = await t.database.db
      .select()
      .from(feedbackItems)
      .where(eq(feedbackItems.applicationId, app.id));
    const key = row?.imageKey as string;
    expect(await t.platform.storage.stat(key)).not.toBeNull();
    const removed = await t.app.inject({
      method: "DELETE",
      url: `/api/applications/${app.id}/`,
      headers: authHeader(owner.token),
    });
    expect(removed.statusCode).toBe(204);
    await waitFor(async () => ((await t.platform.storage.stat(key)) ? undefined : true));
  });
});

let admin: { token: string } | undefined;
async function adminToken() {
  const { createUserWithToken } = await import("../helpers/factories.ts");
  admin ??= await createUserWithToken(t, { email: "admin@tarmac.test" });
  return admin;
}
