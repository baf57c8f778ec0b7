// Web push for the signed-in user: this browser's subscription, made with the server's public
// key and registered with the server, and the calls that list, test and remove subscriptions.
import type { PushPublicKey, PushSubscriptionRecord } from "@tarmac/contracts";
import { api } from "./client.ts";

export type { PushSubscriptionRecord };

export const pushKeys = {
  subscriptions: () => ["push-subscriptions"] as const,
  browser: () => ["push-browser-subscription"] as const,
};

/** Why this browser cannot take pushes; the profile shows the spec's message for each. */
export class PushUnavailableError extends Error {
  constructor(readonly reason: "unsupported" | "not_subscribed" | "unsubscribe_failed" | "denied") {
    super(reason);
    this.name = "PushUnavailableError";
  }
}

/** Service workers and the Push API are there (a secure context, a browser that has them). */
export function pushSupported(): boolean {
  return (
    typeof window !== "undefined" &&
    window.isSecureContext &&
    "serviceWorker" in navigator &&
    "PushManager" in window &&
    "Notification" in window
  );
}

async function workerRegistration(): Promise<ServiceWorkerRegistration> {
  if (!pushSupported()) throw new PushUnavailableError("unsupported");
  const registration = await navigator.serviceWorker.getRegistration("/");
  if (!registration) throw new PushUnavailableError("unsupported");
  return registration;
}

/** This browser's push subscription, or null. */
export async function findBrowserSubscription(): Promise<PushSubscription | null> {
  if (!pushSupported()) return null;
  const registration = await navigator.serviceWorker.getRegistration("/");
  return (await registration?.pushManager.getSubscription()) ?? null;
}

function applicationServerKey(base64Url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64Url.replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Asks for permission, subscribes with the server's key, and registers the subscription. */
export async function subscribeThisBrowser(language: string): Promise<void> {
  const registration = await workerRegistration();
  if ((await Notification.requestPermission()) !== "granted") throw new PushUnavailableError("denied");
  const { public_key } = await api.get<PushPublicKey>("/api/push/public-key/");
  const key = applicationServerKey(public_key);
  let subscription = await registration.pushManager.getSubscription();
  // A subscription made with another key (the server's key was replaced) can never be used.
  const sameKey = (existing: PushSubscription) => {
    const current = existing.options.applicationServerKey;
    return current !== null && new Uint8Array(current).every((byte, index) => byte === key[index]);
  };
  if (subscription && !sameKey(subscription)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: key,
  });
  await api.post<PushSubscriptionRecord>("/api/push/subscriptions/", { ...subscription.toJSON(), language });
}

/** Unsubscribes this browser at the push service and the server. */
export async function unsubscribeThisBrowser(): Promise<void> {
  if (!pushSupported()) throw new PushUnavailableError("unsupported");
  const subscription = await findBrowserSubscription();
  if (!subscription) throw new PushUnavailableError("not_subscribed");
  const { endpoint } = subscription;
  let unsubscribed = false;
  try {
    unsubscribed = await subscription.unsubscribe();
  } catch {
    unsubscribed = false;
  }
  if (!unsubscribed) throw new PushUnavailableError("unsubscribe_failed");
  // The server forgets it too; one it never knew is already as it should be.
  await api.post("/api/push/subscriptions/unsubscribe/", { endpoint }).catch(() => undefined);
}

/** Tells the server to stop pushing to this browser (on sign-out); never fails the caller. */
export async function forgetThisBrowserForPush(): Promise<void> {
  try {
    const subscription = await findBrowserSubscription();
    if (subscription)
      await api.post("/api/push/subscriptions/unsubscribe/", { endpoint: subscription.endpoint });
  } catch {
    // Not subscribed here, or the server forgot it already: nothing is pushed either way.
  }
}

export async function listPushSubscriptions(): Promise<PushSubscriptionRecord[]> {
  return (await api.get<{ results: PushSubscriptionRecord[] }>("/api/push/subscriptions/")).results;
}

export function sendTestPush(): Promise<{ sent: number }> {
  return api.post<{ sent: number }>("/api/push/test/");
}
