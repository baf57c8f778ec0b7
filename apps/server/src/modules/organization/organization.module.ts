import type { AppModule } from "../../platform/module.ts";
import type { Platform } from "../../platform/platform.ts";
import type { PlanServices } from "../plan/plan.module.ts";
import type { UsersServices } from "../users/users.module.ts";
import { InvitationService } from "./invitation.service.ts";
import { MailLogos } from "./mail-logos.ts";
import { MembershipService } from "./membership.service.ts";
import { createOrganizationJobs } from "./organization.jobs.ts";
import { registerOrganizationRoutes } from "./organization.routes.ts";
import { OrganizationService } from "./organization.service.ts";
import { OrganizationLifecycleService } from "./organization-lifecycle.service.ts";
import { invitationPersonalData, organizationPersonalData } from "./organization-personal-data.ts";
import { OrganizationPlanService } from "./organization-plan.service.ts";
import { OrganizationUsageService } from "./organization-usage.service.ts";

export { membershipsReadWithToken } from "./membership.service.ts";

/** Organizations and memberships (the tenant boundary), usage counters, ownership and deletion. */
export function createOrganizationModule(platform: Platform, deps: UsersServices & PlanServices) {
  const { db } = platform.database;
  const membership = new MembershipService({ db, lists: platform.lists, identity: platform.identity });
  const invitations = new InvitationService({ db });
  const usage = new OrganizationUsageService({ db, membership, invitations, plans: deps.plans });
  const organizationJobs = createOrganizationJobs({ db, storage: platform.storage, invitations });
  const organizations = new OrganizationService({
    db,
    membership,
    plans: deps.plans,
    usage,
    storage: platform.storage,
    mail: platform.mail,
    publicUrl: platform.config.PUBLIC_URL,
  });
  // Mail in an organization's name carries its logo.
  const logos = new MailLogos({ db, storage: platform.storage });
  platform.mail.router.useOrganizationLogos((organizationId, tx) => logos.logoOf(organizationId, tx));
  const lifecycle = new OrganizationLifecycleService({
    db,
    membership,
    users: deps.users,
    jobs: platform.jobs,
    organizationJobs,
  });
  return {
    services: {
      membership,
      invitations,
      organizations,
      usage,
      lifecycle,
      organizationPlans: new OrganizationPlanService({ db, plans: deps.plans }),
    },
    routes: (app) =>
      registerOrganizationRoutes(app, {
        organizations,
        lifecycle,
        usage,
        publicUrl: platform.config.PUBLIC_URL,
      }),
    jobs: Object.values(organizationJobs),
    schedules: [{ job: organizationJobs.expireInvitations, cron: "41 * * * *" }],
    personalData: [organizationPersonalData(db), invitationPersonalData(db)],
  } satisfies AppModule;
}

export type OrganizationServices = ReturnType<typeof createOrganizationModule>["services"];
