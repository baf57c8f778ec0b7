import type { AppModule } from "../../platform/module.ts";
import type { Platform } from "../../platform/platform.ts";
import type { DescribePage } from "./page-head.ts";
import { defaultWebDistDir, registerWebHost } from "./web-host.routes.ts";

/** The built web app; its catch-all comes last, after every API route. */
export function createWebHostModule(platform: Platform, deps: { describePage?: DescribePage } = {}) {
  const { config } = platform;
  return {
    services: {},
    routes: (app) =>
      registerWebHost(app, {
        distDir: config.WEB_DIST_DIR ?? defaultWebDistDir,
        describePage: deps.describePage,
        client: {
          gtm_container_id: config.GTM_CONTAINER_ID ?? null,
          cookie_domain: config.COOKIE_DOMAIN,
          public_url: config.PUBLIC_URL,
        },
      }),
  } satisfies AppModule;
}
