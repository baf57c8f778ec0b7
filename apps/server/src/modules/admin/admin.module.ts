import type { AppModule } from "../../platform/module.ts";
import type { Platform } from "../../platform/platform.ts";
import { registerMailTestRoute } from "./mail-test.routes.ts";
import { registerOutboxRoutes } from "./outbox.routes.ts";
import { OutboxService } from "./outbox.service.ts";

/** Instance administrators' tools: the dev outbox and a test message. */
export function createAdminModule(platform: Platform) {
  const outbox = new OutboxService({ db: platform.database.db });
  return {
    services: {},
    routes: (app) => {
      registerOutboxRoutes(app, { outbox, publicUrl: platform.config.PUBLIC_URL });
      registerMailTestRoute(app, { mail: platform.mail });
    },
  } satisfies AppModule;
}
