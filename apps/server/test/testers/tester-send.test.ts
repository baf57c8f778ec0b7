import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addProjectMember, createApp, createVersion } from "../helpers/app-factories.ts";
import { authHeader, createUserWithToken } from "../helpers/factories.ts";
import { addMember } from "../helpers/org-factories.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";
import { waitFor } from "../helpers/wait-for.ts";
import { as, seedTesterWorld } from "./setup.ts";

interface OutboxItem {
  to: string;
  subject: string;
  text: string;
  html: string | null;
}

describe("send to testers", () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof seedTesterWorld>>;
  let instanceAdmin: string;
  let iosApp: Awaited<ReturnType<typeof createApp>>;
  let apk: Awaited<ReturnType<typeof createVersion>>;
  let ipa: Awaited<ReturnType<typeof createVersion>>;
  let testerId: number;
  let groupedId: number;
  let mailId: number;

  beforeAll(async () => {
    t = await createTestApp();
    await t.platform.jobs.work({ pollingIntervalSeconds: 0.5 });
    instanceAdmin = (await createUserWithToken(t, { email: "admin@tarmac.test" })).token;
    w = await seedTesterWorld(t);
    apk = await createVersion(t, w.app, { version: "2.1.0", buildNumber: "210" });
    iosApp = await createApp(t, w.organization.id, {
      projectId: w.app.projectId,
      appType: 1,
      title: "Rocket iOS",
    });
    ipa = await createVersion(t, iosApp, {
      version: "2.1.0",
      buildNumber: "7",
      fixture: "apple/ipa/adhoc.ipa",
    });
    const post = (url: string, payload: object) =>
      t.app.inject({ method: "POST", url, headers: as(w.owner), payload });
    const group = (await post("/api/group-testers/", { app: w.app.id, title: "QA" })).json();
    testerId = (await post("/api/testers/", { email: "tess@example.test", app: w.app.id })).json().id;
    groupedId = (
      await post("/api/testers/", { email: "gina@example.test", app: w.app.id, groups: [group.id] })
    ).json().id;
    mailId = (await post("/api/app-mails/", { email: "list@example.test", app: w.app.id })).json().id;
  }, 60_000);
  afterAll(() => t.close());

  const outbox = async (to: string) =>
    (
      await t.app.inject({
        url: `/api/admin/outbox/?to=${encodeURIComponent(to)}`,
        headers: authHeader(instanceAdmin),
      })
    ).json().results as OutboxItem[];

  const send = (payload: object, user: { token: string } = w.owner, appId = w.app.id) =>
    t.app.inject({ method: "POST", url: `/api/app-teams/${appId}/`, headers: as(user), payload });

  it("queues one mail per distinct address and delivers install links for each platform", async () => {
    const response = await send({
      app2os: [w.app.id, iosApp.id],
      apk_version: apk.id,
      testers_id: [testerId, groupedId],
      users_id: [w.manager.user.id],
      emails_id: [mailId],
      whats_new: "Faster launch & <b>dark mode</b>",
      is_show_tutorial: true,
    });
    expect(response.statusCode).toBe(202);
    expect(response.json()).toEqual({ batch_id: expect.any(String), recipients: 4 });

    const [mail] = await waitFor(async () => {
      const found = await outbox("tess@example.test");
      return found.length > 0 ? found : undefined;
    });
    expect(mail?.subject).toContain("Rocket");
    expect(mail?.text).toContain("Acme Labs");
    expect(mail?.text).toContain("2.1.0 (210)");
    expect(mail?.text).toContain("Faster launch & <b>dark mode</b>");
    expect(mail?.html).toContain("&lt;b&gt;dark mode&lt;/b&gt;");
    expect(mail?.text).toContain("How to install");
    // One install page per platform's app: the app-level links the distribution module keeps.
    const links = [...(mail?.text ?? "").matchAll(/http:\/\/tarmac\.test\/getapp\/([A-Za-z0-9_-]{20,})/g)];
    expect(new Set(links.map((match) => match[1])).size).toBe(2);

    const picker = await waitFor(async () => {
      const body = (await t.app.inject({ url: `/api/app-teams/${w.app.id}/`, headers: as(w.owner) })).json();
      return body.batches[0]?.sent === 4 ? body : undefined;
    });
    expect(picker.batches[0]).toMatchObject({
      batch_id: response.json().batch_id,
      total: 4,
      failed: 0,
      queued: 0,
    });
    for (const to of ["gina@example.test", "list@example.test", w.manager.user.email]) {
      expect(await outbox(to), to).toHaveLength(1);
    }
  });

  it("reuses the app's install link from one send to the next", async () => {
    const preview = async () =>
      (
        await t.app.inject({
          url: `/api/app-teams/${w.app.id}/?emulate_email=1&apk_version=${apk.id}`,
          headers: as(w.owner),
        })
      ).json().text as string;
    const link = (text: string) => /getapp\/([A-Za-z0-9_-]+)/.exec(text)?.[1];
    expect(link(await preview())).toBeDefined();
    expect(link(await preview())).toBe(link(await preview()));
  });

  it("previews the mail without sending it", async () => {
    const response = await t.app.inject({
      url: `/api/app-teams/${w.app.id}/?emulate_email=1&app2os=${w.app.id},${iosApp.id}&whats_new=Hello&is_system=1`,
      headers: as(w.manager),
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(["html", "subject", "text"]);
    expect(body.text).toContain("Acme Labs has a new build of Rocket");
    expect(body.text).toContain("Hello");
    expect(body.text).not.toContain("How to install");
    expect(body.text).toMatch(/http:\/\/tarmac\.test\/getapp\/[A-Za-z0-9_-]{20,}/);
  });

  it("previews exactly the mail the send delivers: same subject, text and HTML, in the organization's name", async () => {
    const tester = (
      await t.app.inject({
        method: "POST",
        url: "/api/testers/",
        headers: as(w.manager),
        payload: { email: "pia@example.test", app: w.app.id },
      })
    ).json().id;
    const query = `app2os=${w.app.id},${iosApp.id}&apk_version=${apk.id}&testers_id=${tester}&whats_new=${encodeURIComponent("Faster & <b>bolder</b>")}`;
    const preview = (
      await t.app.inject({
        url: `/api/app-teams/${w.app.id}/?emulate_email=1&${query}`,
        headers: as(w.manager),
      })
    ).json() as { subject: string; text: string; html: string };
    const response = await send(
      {
        app2os: [w.app.id, iosApp.id],
        apk_version: apk.id,
        testers_id: [tester],
        whats_new: "Faster & <b>bolder</b>",
      },
      w.manager,
    );
    expect(response.statusCode).toBe(202);
    const [delivered] = await waitFor(async () => {
      const found = await outbox("pia@example.test");
      return found.length > 0 ? found : undefined;
    });
    expect(delivered).toEqual({
      ...preview,
      to: "pia@example.test",
      id: expect.anything(),
      attachments: [],
      created_at: expect.any(String),
    });
    // Both parts, headed and signed in the organization's name; one install button per platform.
    expect(preview.text).toContain("Faster & <b>bolder</b>");
    expect(preview.text).toContain("— Acme Labs via Tarmac");
    expect(preview.html).toMatch(/class="mail-header"[^>]*>.*Acme Labs/s);
    expect(preview.html).toContain("Faster &amp; &lt;b&gt;bolder&lt;/b&gt;");
    expect(preview.html.match(/class="mail-button"/g)).toHaveLength(2);
  });

  it("offers groups, testers, members who may read the app, app mails and builds", async () => {
    const response = await t.app.inject({
      url: `/api/app-teams/${w.app.id}/?ver=${apk.id}`,
      headers: as(w.owner),
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.version).toBe(apk.id);
    expect(body.platforms.map((p: { app: number }) => p.app)).toEqual([w.app.id, iosApp.id]);
    expect(body.platforms[0].versions[0]).toMatchObject({ id: apk.id, version: "2.1.0" });
    expect(body.groups[0].testers.map((x: { id: number }) => x.id)).toEqual([groupedId]);
    expect(body.testers.map((x: { id: number }) => x.id)).toContain(testerId);
    const userIds = body.users.map((u: { id: number }) => u.id);
    expect(userIds).toEqual(expect.arrayContaining([w.owner.user.id, w.admin.user.id, w.manager.user.id]));
    expect(userIds).not.toContain(w.outsider.user.id);
    expect(body.app_mails.map((m: { id: number }) => m.id)).toEqual([mailId]);
  });

  it("refuses recipients and builds that are not this app's", async () => {
    const foreignTester = (
      await t.app.inject({
        method: "POST",
        url: "/api/testers/",
        headers: as(w.stranger.owner),
        payload: { email: "f@example.test", app: w.strangerApp.id },
      })
    ).json().id;
    const cases: [object, string][] = [
      [{ testers_id: [foreignTester] }, "testers_id"],
      [{ users_id: [w.outsider.user.id] }, "users_id"],
      [{ users_id: [w.stranger.owner.user.id] }, "users_id"],
      [{ emails_id: [999999] }, "emails_id"],
      [{ testers_id: [testerId], apk_version: ipa.id }, "apk_version"],
      [{ testers_id: [testerId], app2os: [w.strangerApp.id] }, "app2os"],
      [{}, "non_field_errors"],
    ];
    for (const [payload, field] of cases) {
      const response = await send(payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json(), JSON.stringify(payload)).toHaveProperty(field);
    }
  });

  it("follows the tester permissions", async () => {
    expect((await send({ testers_id: [testerId] }, w.mobile)).statusCode).toBe(403);
    expect((await send({ testers_id: [testerId] }, w.outsider)).statusCode).toBe(404);
    expect((await send({ testers_id: [testerId] }, w.stranger.owner)).statusCode).toBe(404);
    const url = `/api/app-teams/${w.app.id}/`;
    expect((await t.app.inject({ url, headers: as(w.mobile) })).statusCode).toBe(403);
    expect((await t.app.inject({ url, headers: as(w.stranger.owner) })).statusCode).toBe(404);
  });

  it("lets one user send at most 10 times a minute", async () => {
    const sender = await addMember(t, w.organization.id, 4);
    await addProjectMember(t, w.app.projectId, sender.user.id, { role: 4 });
    const codes: number[] = [];
    for (let i = 0; i < 11; i++) codes.push((await send({ emails_id: [mailId] }, sender)).statusCode);
    expect(codes.slice(0, 10)).toEqual(Array(10).fill(202));
    expect(codes[10]).toBe(429);
  });
});

describe("the organization's mail rate", () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ TESTER_MAIL_RATE_PER_MINUTE: "2" });
  }, 60_000);
  afterAll(() => t.close());

  it("delays mails beyond the per-minute budget instead of dropping them", async () => {
    const w = await seedTesterWorld(t);
    await createVersion(t, w.app);
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) {
      const response = await t.app.inject({
        method: "POST",
        url: "/api/testers/",
        headers: as(w.owner),
        payload: { email: `rate${i}@example.test`, app: w.app.id },
      });
      ids.push(response.json().id);
    }
    const response = await t.app.inject({
      method: "POST",
      url: `/api/app-teams/${w.app.id}/`,
      headers: as(w.owner),
      payload: { testers_id: ids },
    });
    expect(response.statusCode, response.body).toBe(202);
    const { rows } = await t.database.sql.executeSql(
      "select extract(epoch from (start_after - created_on))::int as delay from pgboss.job where name = 'tester.mail' order by delay",
    );
    const minutes = rows.map((row) => Math.round(Number(row.delay) / 60));
    expect(minutes).toEqual([0, 0, 1, 1, 2]);
  });
});
