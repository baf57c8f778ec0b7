import { GenerationCache } from "../../platform/cache/generation-cache.ts";
import type { AppModule } from "../../platform/module.ts";
import type { Platform } from "../../platform/platform.ts";
import type { ApplicationServices } from "../application/application.module.ts";
import type { UsersServices } from "../users/users.module.ts";
import { registerTesterRoutes } from "./tester.routes.ts";
import { TesterService } from "./tester.service.ts";

/** Testers of an app, their groups, CSV import and saved addresses (app mails). */
export function createTesterModule(platform: Platform, deps: UsersServices & ApplicationServices) {
  const testers = new TesterService({
    db: platform.database.db,
    apps: deps.applications,
    users: deps.users,
    lists: platform.lists,
    // About 250 bytes a tester: 100,000 of them in some 25 MB.
    records: new GenerationCache<string>({ maxEntries: 100_000, maxAgeMs: 10 * 60 * 1000 }),
  });
  return {
    services: { testers },
    routes: (app) => registerTesterRoutes(app, { testers, publicUrl: platform.config.PUBLIC_URL }),
  } satisfies AppModule;
}

export type TesterServices = ReturnType<typeof createTesterModule>["services"];
