import type { Membership } from "@tarmac/contracts";
import { GenerationCache } from "../../platform/cache/generation-cache.ts";
import type { AppModule } from "../../platform/module.ts";
import type { Platform } from "../../platform/platform.ts";
import type { ApplicationServices } from "../application/application.module.ts";
import type { AuthServices } from "../auth/auth.module.ts";
import type { OrganizationServices } from "../organization/organization.module.ts";
import type { TeamServices } from "../team/team.module.ts";
import type { TwoFactorServices } from "../two-factor/two-factor.module.ts";
import type { UsersServices } from "../users/users.module.ts";
import { registerStaffRoutes } from "./staff.routes.ts";
import { StaffService } from "./staff.service.ts";
import { StaffActionsService } from "./staff-actions.service.ts";

/** Staff: who is in an organization with which role, teams and projects; invitations; member actions. */
export function createStaffModule(
  platform: Platform,
  deps: UsersServices &
    OrganizationServices &
    TwoFactorServices &
    AuthServices &
    TeamServices &
    Pick<ApplicationServices, "projectMembership">,
) {
  const { membership, organizations, teams } = deps;
  const staff = new StaffService({
    db: platform.database.db,
    membership,
    organizations,
    usage: deps.usage,
    teams,
    projects: deps.projectMembership,
    users: deps.users,
    accounts: deps.accounts,
    // About 300 bytes a member: 50,000 of them in some 15 MB.
    records: new GenerationCache<Membership>({ maxEntries: 50_000, maxAgeMs: 10 * 60 * 1000 }),
  });
  const actions = new StaffActionsService({
    staff,
    membership,
    organizations,
    teams,
    accounts: deps.accounts,
    twoFactor: deps.twoFactor,
    tokens: deps.tokens,
  });
  return {
    services: { staff },
    routes: (app) => registerStaffRoutes(app, { staff, actions, publicUrl: platform.config.PUBLIC_URL }),
  } satisfies AppModule;
}
