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
import { registerInvitationRoutes } from "./staff-invitations.routes.ts";
import { StaffInvitationsService } from "./staff-invitations.service.ts";

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
    teams,
    projects: deps.projectMembership,
    users: deps.users,
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
  const invites = new StaffInvitationsService({
    db: platform.database.db,
    staff,
    membership,
    invitations: deps.invitations,
    organizations,
    usage: deps.usage,
    teams,
    projects: deps.projectMembership,
    users: deps.users,
    accounts: deps.accounts,
  });
  // The invitation link a new account was mailed answers that organization's invitation.
  deps.accountHooks.onInvitationUsed(async (userId, organizationId, tx) => {
    if (organizationId === null) await invites.joinAll(userId, tx);
    else await invites.join(userId, organizationId, tx);
  });
  const publicUrl = platform.config.PUBLIC_URL;
  return {
    services: { staff, staffInvitations: invites },
    routes: (app) => {
      registerStaffRoutes(app, { staff, actions, invites, publicUrl });
      registerInvitationRoutes(app, { invites, publicUrl });
    },
  } satisfies AppModule;
}
