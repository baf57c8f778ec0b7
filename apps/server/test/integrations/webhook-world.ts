// The shared world of the webhook tests: a test app whose worker runs deliveries, a loopback
// receiver answering as scripted per path, and the calls every test makes.
import { Webhook as StandardWebhook } from "standardwebhooks";
import { afterAll, beforeAll } from "vitest";
import { authHeader } from "../helpers/factories.ts";
import { waitFor } from "../helpers/org-factories.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";
import { WebhookReceiver } from "../helpers/webhook-receiver.ts";

export let t: TestApp;
export let receiver: WebhookReceiver;

/** Starts the app and the receiver for the test file (a 1 s delivery deadline keeps timeouts short). */
export function useWebhookWorld(): void {
  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    t = await createTestApp({ ALLOW_PRIVATE_NETWORK_TARGETS: "true", WEBHOOK_TIMEOUT_SECONDS: "1" });
    await t.platform.jobs.work({ pollingIntervalSeconds: 0.5 });
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });
}

/** Waits until `check` holds (deliveries arrive from the worker in the background). */
export const until = (check: () => boolean | Promise<boolean>, timeoutMs?: number) =>
  waitFor(async () => ((await check()) ? true : undefined), timeoutMs);

let pathSequence = 0;
/** A fresh path on the receiver, answering as scripted. */
export const endpoint = (
  answers: Parameters<WebhookReceiver["script"]>[1] = [{ status: 200, body: "ok" }],
) => {
  pathSequence += 1;
  const path = `/hook-${pathSequence}`;
  return { path, url: receiver.script(path, answers) };
};

export const createHook = async (token: string, body: Record<string, unknown>) => {
  const response = await t.app.inject({
    method: "POST",
    url: "/api/webhooks/",
    headers: authHeader(token),
    payload: body,
  });
  return response;
};

export const deliveriesOf = async (token: string, hookId: number) =>
  (await t.app.inject({ url: `/api/webhooks/${hookId}/deliveries/`, headers: authHeader(token) })).json();

/** Checks a received request's Standard Webhooks signature with the given secret; returns the payload. */
export const verified = (secret: string, request: { headers: Record<string, unknown>; body: string }) =>
  new StandardWebhook(secret).verify(request.body, {
    "webhook-id": String(request.headers["webhook-id"]),
    "webhook-timestamp": String(request.headers["webhook-timestamp"]),
    "webhook-signature": String(request.headers["webhook-signature"]),
  }) as { type: string; data: Record<string, unknown> & { build: Record<string, unknown> } };
