import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { pushServerKeys, pushSubscriptions } from "../../src/modules/push/push.tables.ts";
import { PushSubscriptionService } from "../../src/modules/push/push-subscription.service.ts";
import { ServerKeys } from "../../src/modules/push/server-keys.ts";
import { SecretBox } from "../../src/platform/crypto/secret-box.ts";
import { authHeader, createUserWithToken } from "../helpers/factories.ts";
import { waitFor } from "../helpers/org-factories.ts";
import { pushesAt, pushService, settle, subscribeBrowser, t, usePushWorld } from "./push-world.ts";

usePushWorld();

const post = (token: string | null, url: string, payload?: unknown) =>
  t.app.inject({
    method: "POST",
    url,
    headers: token ? authHeader(token) : {},
    ...(payload ? { payload } : {}),
  });

describe("the server's push key pair", () => {
  it("is made once, kept sealed in the database, and the same for every process", async () => {
    const first = (await t.app.inject({ url: "/api/push/public-key/" })).json().public_key;
    expect(first).toMatch(/^[A-Za-z0-9_-]{87}$/);
    expect((await t.app.inject({ url: "/api/push/public-key/" })).json().public_key).toBe(first);
    const [row] = await t.database.db.select().from(pushServerKeys);
    expect(row?.publicKey).toBe(first);
    // Another process (another ServerKeys on the same database) signs with the same pair.
    const box = new SecretBox(t.config.SECRET_KEY, "web-push");
    const other = await new ServerKeys({ db: t.database.db, box, configured: {} }).get();
    expect(other.publicKey).toBe(first);
    expect(row?.sealedPrivateKey).not.toContain(other.privateKey);
  });

  it("is the configured pair when one is given", async () => {
    const box = new SecretBox(t.config.SECRET_KEY, "web-push");
    const configured = { publicKey: `B${"a".repeat(86)}`, privateKey: "k".repeat(43) };
    expect(await new ServerKeys({ db: t.database.db, box, configured }).get()).toEqual(configured);
  });
});

describe("subscribing and unsubscribing", () => {
  it("keeps a subscription sealed, shows it without its endpoint, and pushes a test message to it", async () => {
    const { token } = await createUserWithToken(t);
    const browser = await subscribeBrowser(token, { language: "de" });
    const [row] = await t.database.db
      .select()
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.id, browser.record.id));
    expect(row?.sealed).not.toContain(browser.path);
    const list = (await t.app.inject({ url: "/api/push/subscriptions/", headers: authHeader(token) })).json();
    expect(list.results).toEqual([
      expect.objectContaining({
        id: browser.record.id,
        service: new URL(pushService.origin).host,
        language: "de",
      }),
    ]);
    expect(JSON.stringify(list)).not.toContain(browser.path);

    const test = await post(token, "/api/push/test/");
    expect(test.statusCode).toBe(202);
    expect(test.json()).toEqual({ sent: 1 });
    const [message] = await pushesAt(browser.path, 1);
    expect(message).toEqual({
      kind: "test",
      title: "Tarmac",
      body: "Benachrichtigungen funktionieren auf diesem Gerät.",
      url: "/dashboard/profile",
      tag: "test",
    });
    const [received] = pushService.at(browser.path);
    const publicKey = (await t.app.inject({ url: "/api/push/public-key/" })).json().public_key;
    expect(received?.serverKey).toBe(publicKey);
    expect(received?.claims).toMatchObject({ aud: pushService.origin, sub: "mailto:ops@tarmac.test" });
    expect(received?.headers.ttl).toBe("300");
  });

  it("unsubscribes once; a second time answers the spec's message", async () => {
    const { token } = await createUserWithToken(t);
    const browser = await subscribeBrowser(token);
    const endpoint = browser.json.endpoint;
    expect((await post(token, "/api/push/subscriptions/unsubscribe/", { endpoint })).statusCode).toBe(204);
    const again = await post(token, "/api/push/subscriptions/unsubscribe/", { endpoint });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ detail: "Not subscribed to push notifications." });
  });

  it("lets nobody else unsubscribe a browser, and takes an endpoint over when another person subscribes it", async () => {
    const first = await createUserWithToken(t);
    const second = await createUserWithToken(t);
    const browser = await subscribeBrowser(first.token);
    const endpoint = browser.json.endpoint;
    expect((await post(second.token, "/api/push/subscriptions/unsubscribe/", { endpoint })).statusCode).toBe(
      404,
    );
    const taken = await post(second.token, "/api/push/subscriptions/", browser.json);
    expect(taken.statusCode).toBe(201);
    const listOf = async (token: string) =>
      (await t.app.inject({ url: "/api/push/subscriptions/", headers: authHeader(token) })).json().results;
    expect(await listOf(first.token)).toEqual([]);
    expect(await listOf(second.token)).toHaveLength(1);
  });

  it("refuses what is not a usable subscription with per-field errors", async () => {
    const { token } = await createUserWithToken(t);
    const good = pushService.subscribe().json;
    const cases: [unknown, string][] = [
      [{ ...good, endpoint: good.endpoint.replace("https:", "http:") }, "endpoint"],
      [{ ...good, endpoint: "not a url" }, "endpoint"],
      [{ ...good, keys: { ...good.keys, p256dh: "AAAA" } }, "keys.p256dh"],
      [{ ...good, keys: { ...good.keys, auth: "c2hvcnQ" } }, "keys.auth"],
      [{ endpoint: good.endpoint }, "keys"],
      [{ ...good, language: "fr" }, "language"],
    ];
    for (const [payload, field] of cases) {
      const response = await post(token, "/api/push/subscriptions/", payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(Object.keys(response.json()), response.body).toContain(field);
    }
    expect((await post(null, "/api/push/subscriptions/", good)).statusCode).toBe(401);
    expect((await t.app.inject({ url: "/api/push/subscriptions/" })).statusCode).toBe(401);
  });

  it("refuses a push service on a private address unless the instance allows private targets", async () => {
    const { user } = await createUserWithToken(t);
    const service = new PushSubscriptionService({
      db: t.database.db,
      box: new SecretBox(t.config.SECRET_KEY, "web-push"),
      keys: new ServerKeys({
        db: t.database.db,
        box: new SecretBox(t.config.SECRET_KEY, "web-push"),
        configured: {},
      }),
      allowPrivateTargets: false,
    });
    await expect(service.subscribe(user.id, pushService.subscribe().json)).rejects.toMatchObject({
      status: 400,
      fields: { endpoint: ["The push service's address is not reachable from here."] },
    });
  });
});

describe("what push services answer", () => {
  it("deletes a subscription answered 410 or 404, and keeps one whose service fails for a while", async () => {
    const { token } = await createUserWithToken(t);
    const gone = await subscribeBrowser(token, { answers: [410] });
    const missing = await subscribeBrowser(token, { answers: [404] });
    const failing = await subscribeBrowser(token, { answers: [503] });
    expect((await post(token, "/api/push/test/")).json()).toEqual({ sent: 3 });
    const remaining = async () =>
      (await t.database.db.select().from(pushSubscriptions)).filter((row) =>
        [gone.record.id, missing.record.id, failing.record.id].includes(row.id),
      );
    // The 503 is tried again (with backoff) and then arrives; the others are gone for good.
    const [retried] = await pushesAt(failing.path, 1, 60_000);
    expect(retried?.kind).toBe("test");
    const rows = await waitFor(async () => {
      const found = await remaining();
      return found.length === 1 && found[0]?.lastSentAt ? found : undefined;
    });
    expect(rows.map((row) => row.id)).toEqual([failing.record.id]);
    expect(rows[0]?.lastSentAt).not.toBeNull();
    expect(rows[0]?.failures).toBe(0);
    expect(pushService.at(gone.path)).toEqual([]);
  }, 90_000);

  it("limits test pushes to five in ten minutes", async () => {
    const { token } = await createUserWithToken(t);
    for (let i = 0; i < 5; i += 1) expect((await post(token, "/api/push/test/")).statusCode).toBe(202);
    const sixth = await post(token, "/api/push/test/");
    expect(sixth.statusCode).toBe(429);
    expect(sixth.headers["retry-after"]).toBeDefined();
    await settle(0);
  });
});
