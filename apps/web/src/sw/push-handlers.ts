// What the service worker does with a push and with a click on its notification. Kept apart from
// the precaching so the browser tests can reach it through a plain push event.

/** The JSON the server pushes (packages/contracts: pushMessage). */
interface PushMessage {
  title: string;
  body: string;
  url: string;
  tag: string;
  kind: string;
}

const iconUrl = "/icons/icon-192.png";

function readMessage(data: PushMessageData | null): PushMessage {
  const fallback: PushMessage = {
    title: "Tarmac",
    body: "",
    url: "/dashboard",
    tag: "tarmac",
    kind: "unknown",
  };
  if (!data) return fallback;
  try {
    const parsed = data.json() as Partial<PushMessage>;
    return {
      title: typeof parsed.title === "string" ? parsed.title : fallback.title,
      body: typeof parsed.body === "string" ? parsed.body : "",
      // Only paths of this app are opened: a message never sends the user to another site.
      url:
        typeof parsed.url === "string" && parsed.url.startsWith("/") && !parsed.url.startsWith("//")
          ? parsed.url
          : fallback.url,
      tag: typeof parsed.tag === "string" ? parsed.tag : fallback.tag,
      kind: typeof parsed.kind === "string" ? parsed.kind : fallback.kind,
    };
  } catch {
    return { ...fallback, body: data.text() };
  }
}

export function installPushHandlers(scope: ServiceWorkerGlobalScope): void {
  scope.addEventListener("push", (event) => {
    const message = readMessage(event.data);
    // Every push must show a notification: browsers revoke the permission of workers that stay silent.
    event.waitUntil(
      scope.registration.showNotification(message.title, {
        body: message.body,
        tag: message.tag,
        icon: iconUrl,
        badge: iconUrl,
        data: { url: message.url, kind: message.kind },
      }),
    );
  });

  scope.addEventListener("notificationclick", (event) => {
    event.notification.close();
    const url = new URL(
      (event.notification.data as { url?: string } | null)?.url ?? "/dashboard",
      scope.location.origin,
    );
    event.waitUntil(
      (async () => {
        const windows = await scope.clients.matchAll({ type: "window", includeUncontrolled: true });
        const open = windows.find((client) => new URL(client.url).origin === url.origin);
        if (open) {
          await open.focus();
          await open.navigate(url.href).catch(() => undefined);
          return;
        }
        await scope.clients.openWindow(url.href);
      })(),
    );
  });
}
