// The shared world of the push tests: the app with its worker running, a loopback HTTPS push
// service it trusts, and the calls the tests make.
import { afterAll, beforeAll } from "vitest";
import { authHeader } from "../helpers/factories.ts";
import { waitFor } from "../helpers/org-factories.ts";
import { LoopbackPushService } from "../helpers/push-service.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

export let t: TestApp;
export let pushService: LoopbackPushService;

export function usePushWorld(): void {
  beforeAll(async () => {
    pushService = await LoopbackPushService.start();
    t = await createTestApp({
      ALLOW_PRIVATE_NETWORK_TARGETS: "true",
      PUSH_SERVICE_CA_FILE: pushService.caFile,
      MAIL_FROM: "Tarmac <ops@tarmac.test>",
    });
    await t.platform.jobs.work({ pollingIntervalSeconds: 0.5 });
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    await pushService?.close();
  });
}

/** Subscribes a new browser of the user at the loopback push service; answers its path there. */
export async function subscribeBrowser(
  token: string,
  options: { answers?: number[]; language?: string } = {},
) {
  const browser = pushService.subscribe(options.answers);
  const response = await t.app.inject({
    method: "POST",
    url: "/api/push/subscriptions/",
    headers: authHeader(token),
    payload: { ...browser.json, language: options.language ?? "en" },
  });
  if (response.statusCode !== 201)
    throw new Error(`subscribe failed: ${response.statusCode} ${response.body}`);
  return { ...browser, record: response.json() as { id: number } };
}

/** Waits for `count` pushes at a subscription and answers them as the service worker reads them. */
export async function pushesAt(path: string, count: number, timeoutMs = 15_000) {
  const found = await waitFor(
    async () => (pushService.at(path).length >= count ? pushService.at(path) : undefined),
    timeoutMs,
  );
  return found.map((push) => JSON.parse(push.text) as Record<string, string>);
}

/** Lets queued jobs run, for tests that check nothing arrived. */
export const settle = (ms = 2500) => new Promise((resolve) => setTimeout(resolve, ms));
