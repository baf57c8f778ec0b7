import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitForMail } from "../accounts/helpers.ts";
import { createApp, createVersion } from "../helpers/app-factories.ts";
import { authHeader } from "../helpers/factories.ts";
import { createOrganization } from "../helpers/org-factories.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

const password = "correct horse";

describe("install-link passwords resist guessing from many addresses", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await t.platform.jobs.work({ pollingIntervalSeconds: 0.5 });
  });
  afterAll(() => t.close());

  async function passwordLink() {
    const { organization, owner } = await createOrganization(t);
    const app = await createApp(t, organization.id);
    await createVersion(t, app);
    const created = await t.app.inject({
      method: "POST",
      url: "/api/distributions/",
      headers: authHeader(owner.token),
      payload: { app: app.id, access: "password", password },
    });
    expect(created.statusCode).toBe(201);
    return { link: created.json(), owner, app };
  }
  const unlock = (key: string, guess: string, address: string) =>
    t.app.inject({
      method: "POST",
      url: `/api/getapp/${key}/unlock/`,
      payload: { password: guess },
      remoteAddress: address,
    });
  const lockOf = async (linkId: number) =>
    (
      await t.database.sql.executeSql(
        "select strikes, extract(epoch from locked_until - now())::float8 as seconds from login_throttle where key = $1",
        [`getapp-unlock-link:${linkId}`],
      )
    ).rows[0] as { strikes: number; seconds: number } | undefined;

  it("refuses passwords shorter than 8 characters", async () => {
    const { organization, owner } = await createOrganization(t);
    const app = await createApp(t, organization.id);
    const response = await t.app.inject({
      method: "POST",
      url: "/api/distributions/",
      headers: authHeader(owner.token),
      payload: { app: app.id, access: "password", password: "1234567" },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ password: ["Ensure this field has at least 8 characters."] });
  });

  it("locks the link for everyone after 20 wrong guesses spread over 5 addresses, and tells the owner", async () => {
    const { link, owner, app } = await passwordLink();
    const statuses: number[] = [];
    for (let guess = 0; guess < 25; guess += 1) {
      const response = await unlock(link.key, `guess-${guess}`, `198.51.100.${(guess % 5) + 1}`);
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([...Array(20).fill(400), ...Array(5).fill(429)]);
    // A sixth address, even with the right password, waits too: a lock must stop guessing.
    const fresh = await unlock(link.key, password, "203.0.113.77");
    expect(fresh.statusCode).toBe(429);
    expect(Number(fresh.headers["retry-after"])).toBeGreaterThan(14 * 60);
    const [notice] = await waitForMail(t, owner.user.email);
    expect(notice?.subject).toBe(`${app.title}: install link under attack`);
    expect(notice?.text).toContain(`/getapp/${link.key}`);
  });

  it("doubles the lock each time the guessing starts again", async () => {
    const { link } = await passwordLink();
    const lockFor = async () => {
      for (let guess = 0; guess < 20; guess += 1)
        await unlock(link.key, `try-${guess}`, `192.0.2.${(guess % 4) + 1}`);
      return lockOf(link.id);
    };
    const first = await lockFor();
    expect(first).toMatchObject({ strikes: 1 });
    expect(first?.seconds).toBeGreaterThan(14 * 60);
    expect(first?.seconds).toBeLessThanOrEqual(15 * 60);
    // The lock and its window run out; the next round locks for twice as long.
    await t.database.sql.executeSql(
      "update login_throttle set locked_until = now() - interval '1 second', window_started_at = now() - interval '1 hour' where key = $1",
      [`getapp-unlock-link:${link.id}`],
    );
    const second = await lockFor();
    expect(second).toMatchObject({ strikes: 2 });
    expect(second?.seconds).toBeGreaterThan(29 * 60);
    expect(second?.seconds).toBeLessThanOrEqual(30 * 60);
  });

  it("still opens the link for the right password from a fresh address below the limits", async () => {
    const { link } = await passwordLink();
    for (let guess = 0; guess < 5; guess += 1) {
      expect((await unlock(link.key, `nope-${guess}`, "198.51.100.200")).statusCode).toBe(400);
    }
    const right = await unlock(link.key, password, "198.51.100.201");
    expect(right.statusCode).toBe(200);
    expect(right.json().access_token).toEqual(expect.any(String));
  });
});
