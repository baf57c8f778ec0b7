import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deleteReservationsBefore } from "../../src/modules/distribution/install-reservation.repo.ts";
import { createApp, createVersion } from "../helpers/app-factories.ts";
import { authHeader } from "../helpers/factories.ts";
import { createOrganization } from "../helpers/org-factories.ts";
import { distributions } from "../helpers/tables.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";
import { eventually, localPath } from "./distribution-fixtures.ts";

const dayMs = 24 * 3600 * 1000;

describe("install link names, states and device counting", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const create = (token: string, payload: Record<string, unknown>) =>
    t.app.inject({ method: "POST", url: "/api/distributions/", headers: authHeader(token), payload });
  const patch = (token: string, id: number, payload: Record<string, unknown>) =>
    t.app.inject({ method: "PATCH", url: `/api/distributions/${id}/`, headers: authHeader(token), payload });
  const installsOf = async (id: number) =>
    (await t.database.db.select().from(distributions).where(eq(distributions.id, id)))[0]?.installsCount;

  it("names links, and a blank name clears it", async () => {
    const { organization, owner } = await createOrganization(t);
    const app = await createApp(t, organization.id);
    const created = await create(owner.token, { app: app.id, name: "  QA team  " });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ name: "QA team", state: "active" });
    const renamed = await patch(owner.token, created.json().id, { name: "Beta wave 2" });
    expect(renamed.json().name).toBe("Beta wave 2");
    const cleared = await patch(owner.token, created.json().id, { name: " " });
    expect(cleared.json().name).toBeNull();
    const unnamed = await create(owner.token, { app: app.id });
    expect(unnamed.json().name).toBeNull();
    expect((await create(owner.token, { app: app.id, name: "x".repeat(101) })).statusCode).toBe(400);
  });

  it("refuses an expiry in the past under its field, on create and on update", async () => {
    const { organization, owner } = await createOrganization(t);
    const app = await createApp(t, organization.id);
    const past = new Date(Date.now() - 60_000).toISOString();
    const refused = await create(owner.token, { app: app.id, expires_at: past });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ expires_at: ["The expiry time must be in the future."] });
    const link = (await create(owner.token, { app: app.id, expires_at: "2099-01-01T00:00:00Z" })).json();
    const update = await patch(owner.token, link.id, { expires_at: past });
    expect(update.statusCode).toBe(400);
    expect(update.json()).toHaveProperty("expires_at");
    expect((await patch(owner.token, link.id, { expires_at: null })).json().expires_at).toBeNull();
  });

  it("answers each link's state: active, expired, used up", async () => {
    const { organization, owner } = await createOrganization(t);
    const app = await createApp(t, organization.id);
    await createVersion(t, app);
    const list = () =>
      t.app.inject({ url: `/api/distributions/?app=${app.id}`, headers: authHeader(owner.token) });
    // The first read makes the app's permanent link.
    await list();
    const expiring = (await create(owner.token, { app: app.id, expires_at: "2099-01-01T00:00:00Z" })).json();
    await t.database.db
      .update(distributions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(distributions.id, expiring.id));
    const limited = (await create(owner.token, { app: app.id, install_limit: 1 })).json();
    await t.database.db
      .update(distributions)
      .set({ installsCount: 1 })
      .where(eq(distributions.id, limited.id));
    const states = Object.fromEntries(
      (await list()).json().results.map((link: { id: number; state: string }) => [link.id, link.state]),
    );
    expect(Object.values(states).sort()).toEqual(["active", "expired", "used_up"]);
    expect(states[expiring.id]).toBe("expired");
    expect(states[limited.id]).toBe("used_up");
  });

  it("counts a device once against the limit, also when it comes back after the daily sweep", async () => {
    const { organization, owner } = await createOrganization(t);
    const app = await createApp(t, organization.id);
    await createVersion(t, app);
    const link = (await create(owner.token, { app: app.id, install_limit: 2 })).json();
    const [build] = (await t.app.inject({ url: `/api/getapp/${link.key}/` })).json().builds;
    const download = (remoteAddress: string) =>
      t.app.inject({ url: localPath(build.install.url), remoteAddress });

    expect((await download("10.1.1.1")).statusCode).toBe(200);
    expect((await download("10.1.1.1")).statusCode).toBe(200);
    await eventually(async () => expect(await installsOf(link.id)).toBe(1));
    await deleteReservationsBefore(t.database.db, new Date(Date.now() + 2 * dayMs));
    expect((await download("10.1.1.1")).statusCode).toBe(200);
    expect((await download("10.2.2.2")).statusCode).toBe(200);
    await eventually(async () => expect(await installsOf(link.id)).toBe(2));
    expect((await download("10.3.3.3")).statusCode).toBe(410);
  });

  it("tells signed-in people whether this instance can serve iOS installs", async () => {
    const { owner } = await createOrganization(t);
    const res = await t.app.inject({ url: "/api/distributions/instance/", headers: authHeader(owner.token) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      ios_installs: false,
      reason: expect.stringContaining("http://tarmac.test"),
    });
    expect((await t.app.inject({ url: "/api/distributions/instance/" })).statusCode).toBe(401);
    const secure = await createTestApp({ PUBLIC_URL: "https://tarmac.test" });
    try {
      const reply = await secure.app.inject({
        url: "/api/distributions/instance/",
        headers: authHeader((await createOrganization(secure)).owner.token),
      });
      expect(reply.json()).toEqual({ ios_installs: true, reason: null });
    } finally {
      await secure.close();
    }
  });
});
