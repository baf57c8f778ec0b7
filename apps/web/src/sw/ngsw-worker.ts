// The service worker (served as /ngsw-worker.js): the app shell from the precache, so the app
// opens offline; a new release waits until the page asks it to take over (the page shows the
// "new version" prompt); pushes become notifications.
import { clientsClaim } from "workbox-core";
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from "workbox-precaching";
import { NavigationRoute, registerRoute } from "workbox-routing";
import { installPushHandlers } from "./push-handlers.ts";

declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: Array<{ url: string; revision: string | null }>;
};

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// Every page of the app is the same index.html. The server answers the API, translations, build
// downloads and install links itself, and paths naming a file (feeds, sitemaps, this worker, the
// manifest) are files, not pages: none of those may get the cached shell.
registerRoute(
  new NavigationRoute(createHandlerBoundToURL("index.html"), {
    // Matched against the path and query: the file test looks at the path alone.
    denylist: [/^\/api\//, /^\/media\//, /^\/(?:[^/?]+\/)*[^/?]+\.[^/?]+(?:\?.*)?$/],
  }),
);

self.addEventListener("message", (event) => {
  if ((event.data as { type?: string } | null)?.type === "SKIP_WAITING") void self.skipWaiting();
});

// The first release takes control at once (nothing to be out of step with); later ones wait for the prompt.
clientsClaim();

installPushHandlers(self);
