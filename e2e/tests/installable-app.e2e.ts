// The installable app in Chromium: the manifest Chrome would install from, the shell opening
// offline from the service worker, the reload prompt of a new release, and a push reaching the
// service worker and becoming a notification.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { BrowserContext, CDPSession, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LoopbackPushService } from "../../apps/server/test/helpers/push-service.ts";
import { issueAdminToken } from "../../apps/server/test/helpers/server-process.ts";
import { removeTempDirs } from "../../apps/server/test/helpers/temp-dirs.ts";
import { apiClient } from "../helpers/api-client.ts";
import { type Harness, startHarness } from "../helpers/harness.ts";
import { en } from "../helpers/shared-files.ts";

const OWNER = "ivy.install@install.test";
const builtWeb = fileURLToPath(new URL("../../apps/web/dist/", import.meta.url));

let harness: Harness;
let pushService: LoopbackPushService;
let dataDir: string;
/** A copy of the web build, so a test can put a new release in place. */
let webDir: string;
let token: string;
const { api, postJson } = apiClient(
  () => harness.baseUrl,
  () => token,
);

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "tarmac-e2e-pwa-"));
  webDir = mkdtempSync(path.join(os.tmpdir(), "tarmac-e2e-pwa-web-"));
  cpSync(builtWeb, webDir, { recursive: true });
  pushService = await LoopbackPushService.start();
  const env = {
    DATA_DIR: dataDir,
    DATABASE_URL: "",
    ADMIN_EMAILS: OWNER,
    WEB_DIST_DIR: webDir,
    ALLOW_PRIVATE_NETWORK_TARGETS: "true",
    PUSH_SERVICE_CA_FILE: pushService.caFile,
  };
  token = issueAdminToken(env, OWNER);
  harness = await startHarness(env);
});

afterAll(async () => {
  await harness?.close();
  await pushService?.close();
  removeTempDirs();
  for (const dir of [dataDir, webDir]) if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Waits until the service worker is active and controls the page (the precache is then complete). */
async function controlledByWorker(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise((resolve) =>
        navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true }),
      );
    }
    return registration.active?.scriptURL ?? "";
  });
}

/** The id DevTools gives the origin's service worker registration. */
async function registrationId(cdp: CDPSession, scopeUrl: string): Promise<string> {
  return new Promise((resolve) => {
    cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations }) => {
      const found = registrations.find(
        (registration) => registration.scopeURL === scopeUrl && !registration.isDeleted,
      );
      if (found) resolve(found.registrationId);
    });
    void cdp.send("ServiceWorker.enable");
  });
}

describe("the installable app", () => {
  it("has a manifest Chrome can install from, opening on the mobile area", async () => {
    const response = await fetch(`${harness.baseUrl}/manifest.webmanifest`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/manifest+json");
    const manifest = await response.json();
    expect(manifest).toMatchObject({
      name: "Tarmac",
      start_url: "/dashboard/m",
      scope: "/",
      display: "standalone",
    });
    for (const icon of manifest.icons as { src: string; sizes: string }[]) {
      const image = await fetch(`${harness.baseUrl}${icon.src}`);
      expect(image.headers.get("content-type")).toBe("image/png");
      const bytes = Buffer.from(await image.arrayBuffer());
      // The PNG's own width is the size the manifest claims.
      expect(`${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`).toBe(icon.sizes);
    }

    const context = await harness.newContext();
    const page = await context.newPage();
    await page.goto("/login");
    await page.getByRole("heading", { name: en.login.title }).waitFor();
    expect(await controlledByWorker(page)).toBe(`${harness.baseUrl}/ngsw-worker.js`);
    const cdp = await context.newCDPSession(page);
    const parsed = await cdp.send("Page.getAppManifest");
    expect(parsed.errors).toEqual([]);
    expect(parsed.url).toBe(`${harness.baseUrl}/manifest.webmanifest`);
    // Browser contexts of an automated browser are incognito ones, where Chrome installs nothing;
    // apart from that, nothing may stand in the way of installing.
    const installability = await cdp.send("Page.getInstallabilityErrors");
    const reasons = installability.installabilityErrors.map((error) => error.errorId);
    expect(reasons.filter((reason) => reason !== "in-incognito")).toEqual([]);
    await context.close();
  });

  it("opens the shell offline once the service worker is installed", async () => {
    const context = await harness.newContext();
    const page = await context.newPage();
    await page.goto("/login");
    await controlledByWorker(page);
    await context.setOffline(true);
    await page.reload();
    await page.getByRole("heading", { name: en.login.title }).waitFor();
    // Another route of the app, never visited, comes from the same cached shell.
    await page.goto("/signup");
    await page.getByLabel(en.fields.email).waitFor();
    expect(await page.evaluate(() => navigator.onLine)).toBe(false);
    await context.close();
  });

  it("delivers a push to the page's service worker, which shows it as a notification", async () => {
    const context: BrowserContext = await harness.signedInContext(token);
    await context.grantPermissions(["notifications"], { origin: harness.baseUrl });
    const page = await context.newPage();
    await page.goto("/dashboard/profile");
    await page.getByRole("heading", { name: en.push.title }).waitFor();
    await controlledByWorker(page);
    // Without a subscription in this browser, turning notifications off says so (spec §8).
    await page.getByRole("button", { name: en.push.disable }).click();
    await page.getByText(en.service_worker.not_subscribed).waitFor();

    // Headless Chromium has no push service here, so the browser's subscription is made at the
    // loopback push service, which stands in for it: it decrypts what the server sends.
    const browser = pushService.subscribe();
    expect((await postJson("/api/push/subscriptions/", { ...browser.json, language: "en" })).status).toBe(
      201,
    );
    await page.reload();
    await page.getByText(en.push.devices_one.replace("{{count}}", "1")).waitFor();
    await page.getByRole("button", { name: en.push.test }).click();
    const arrived = await waitForPush(browser.path);
    expect(JSON.parse(arrived)).toMatchObject({ kind: "test", url: "/dashboard/profile" });

    const cdp = await context.newCDPSession(page);
    const id = await registrationId(cdp, `${harness.baseUrl}/`);
    await cdp.send("ServiceWorker.deliverPushMessage", {
      origin: harness.baseUrl,
      registrationId: id,
      data: arrived,
    });
    const shown = await page.waitForFunction(async () => {
      const registration = await navigator.serviceWorker.ready;
      const [notification] = await registration.getNotifications({ tag: "test" });
      return notification
        ? { title: notification.title, body: notification.body, data: notification.data }
        : null;
    });
    expect(await shown.jsonValue()).toEqual({
      title: "Tarmac",
      body: "Notifications work on this device.",
      data: { url: "/dashboard/profile", kind: "test" },
    });
    expect((await api("/api/push/subscriptions/")).body.results[0].last_sent_at).not.toBeNull();
    await context.close();
  });

  // Last: it puts a new release in place for the whole file.
  it("asks to reload when a new release is out, and runs it after the reload", async () => {
    const context = await harness.newContext();
    const page = await context.newPage();
    await page.goto("/login");
    await controlledByWorker(page);
    const workerFile = path.join(webDir, "ngsw-worker.js");
    const released = readFileSync(workerFile, "utf8").replace(
      /("url":"index\.html","revision":")[^"]+"|("revision":")[^"]+(","url":"index\.html")/,
      (_match, a, b, c) => (a ? `${a}next-release"` : `${b}next-release${c}`),
    );
    expect(released).toContain("next-release");
    writeFileSync(workerFile, released);
    await page.evaluate(async () => (await navigator.serviceWorker.ready).update());
    await page.getByText(en.pwa.update_available).waitFor({ timeout: 30_000 });
    await page.evaluate(() => {
      (window as unknown as { beforeReload: boolean }).beforeReload = true;
    });
    await page.getByRole("button", { name: en.pwa.reload }).click();
    await page.waitForFunction(() => !(window as unknown as { beforeReload?: boolean }).beforeReload);
    await page.getByRole("heading", { name: en.login.title }).waitFor();
    const state = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready;
      return {
        waiting: registration.waiting !== null,
        controlled: navigator.serviceWorker.controller !== null,
      };
    });
    expect(state).toEqual({ waiting: false, controlled: true });
    expect(await page.getByText(en.pwa.update_available).count()).toBe(0);
    await context.close();
  });
});

async function waitForPush(pushPath: string): Promise<string> {
  for (let tries = 0; tries < 150; tries += 1) {
    const [push] = pushService.at(pushPath);
    if (push) return push.text;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no push reached ${pushPath}: ${pushService.failures.join("; ")}`);
}
