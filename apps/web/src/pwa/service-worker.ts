// Registers the service worker (/ngsw-worker.js) once the app is stable: after the first render
// and the page's load, when the browser is idle, so installing it (downloading the precache)
// never competes with the app's own start. A new release installs in the background and waits;
// the update prompt asks the user before it takes over.
import { Workbox } from "workbox-window";

export const serviceWorkerUrl = "/ngsw-worker.js";
/** How often an open app asks whether a new release is out. */
const updateCheckMs = 60 * 60 * 1000;

type Listener = () => void;

let workbox: Workbox | null = null;
let updateWaiting = false;
const listeners = new Set<Listener>();

function setUpdateWaiting(value: boolean): void {
  updateWaiting = value;
  for (const listener of listeners) listener();
}

/** Whether a new release is installed and waits for the user's go-ahead. */
export function isUpdateWaiting(): boolean {
  return updateWaiting;
}

export function subscribeToUpdates(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function serviceWorkersSupported(): boolean {
  return typeof navigator !== "undefined" && "serviceWorker" in navigator && window.isSecureContext;
}

function whenStable(): Promise<void> {
  return new Promise((resolve) => {
    const idle = () =>
      "requestIdleCallback" in window
        ? window.requestIdleCallback(() => resolve(), { timeout: 5000 })
        : setTimeout(resolve, 1000);
    if (document.readyState === "complete") idle();
    else window.addEventListener("load", idle, { once: true });
  });
}

/** Registers the worker once the app is stable; failures are only logged (spec §8). */
export async function registerServiceWorker(): Promise<void> {
  if (!serviceWorkersSupported() || workbox) return;
  await whenStable();
  const wb = new Workbox(serviceWorkerUrl, { scope: "/" });
  workbox = wb;
  wb.addEventListener("waiting", () => setUpdateWaiting(true));
  try {
    await wb.register();
  } catch (error) {
    console.error("Service worker registration failed", error);
    return;
  }
  setInterval(() => void wb.update().catch(() => undefined), updateCheckMs);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") void wb.update().catch(() => undefined);
  });
}

/** Lets the waiting release take over and reloads the page once it controls it. */
export function applyUpdate(): void {
  const wb = workbox;
  if (!wb) return;
  wb.addEventListener("controlling", () => window.location.reload());
  wb.messageSkipWaiting();
}
