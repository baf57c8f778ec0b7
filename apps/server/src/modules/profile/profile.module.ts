import type { AppModule } from "../../platform/module.ts";
import type { Platform } from "../../platform/platform.ts";
import type { GdprServices } from "../gdpr/gdpr.module.ts";
import type { OrganizationServices } from "../organization/organization.module.ts";
import type { UsersServices } from "../users/users.module.ts";
import { registerProfileRoutes } from "./profile.routes.ts";
import { ProfileService } from "./profile.service.ts";

/** The signed-in person's profile (/api/profiles/): their organizations, names, closing the account. */
export function createProfileModule(
  platform: Platform,
  deps: UsersServices & OrganizationServices & GdprServices,
) {
  const profiles = new ProfileService({
    db: platform.database.db,
    users: deps.users,
    organizations: deps.organizations,
    lifecycle: deps.lifecycle,
    closing: deps.gdpr,
    publicUrl: platform.config.PUBLIC_URL,
  });
  return {
    services: { profiles },
    routes: (app) => registerProfileRoutes(app, { profiles, tokens: deps.tokens }),
  } satisfies AppModule;
}
