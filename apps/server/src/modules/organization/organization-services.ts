import { verifyPassword } from "../../platform/crypto/passwords.ts";
import type { createMailJobs } from "../../platform/mail/mail.jobs.ts";
import type { Platform } from "../../platform/platform.ts";
import type { AccountService } from "../auth/account.service.ts";
import { PlanService } from "../plan/plan.service.ts";
import { StaffService } from "../staff/staff.service.ts";
import { StaffActionsService } from "../staff/staff-actions.service.ts";
import { TeamService } from "../team/team.service.ts";
import type { TwoFactorService } from "../two-factor/two-factor.service.ts";
import { findUserById } from "../users/users.repo.ts";
import type { AccountsPort } from "./accounts-port.ts";
import { MembershipService } from "./membership.service.ts";
import { createOrganizationJobs } from "./organization.jobs.ts";
import { OrganizationService } from "./organization.service.ts";
import { OrganizationLifecycleService } from "./organization-lifecycle.service.ts";

export type OrganizationServices = ReturnType<typeof createOrganizationServices>;

/** Builds the organization, plan, staff and team services and registers their jobs. */
export function createOrganizationServices(
  platform: Platform,
  deps: {
    mailJobs: ReturnType<typeof createMailJobs>;
    accounts: AccountService;
    twoFactor: Pick<TwoFactorService, "disableTwoFactor">;
  },
) {
  const { db } = platform.database;
  const accountsPort: AccountsPort = {
    verifyPassword: async (userId, password) =>
      verifyPassword((await findUserById(db, userId))?.passwordHash ?? null, password),
    inviteByEmail: (input, options) => deps.accounts.inviteByEmail(input, options),
    resendInvitation: (userId, options) => deps.accounts.resendInvitation(userId, options),
    disableTwoFactor: (userId) => deps.twoFactor.disableTwoFactor(userId),
    rotateApiKey: (userId) => deps.accounts.rotateApiKey(userId),
  };
  const organizationJobs = createOrganizationJobs({ db, storage: platform.storage });
  platform.jobs.register(Object.values(organizationJobs));

  const membership = new MembershipService(db);
  const plans = new PlanService(db, membership, { defaultPlanCode: platform.config.DEFAULT_PLAN });
  const teams = new TeamService(db, membership);
  const staff = new StaffService({ db, membership, plans, teams, accounts: accountsPort });
  return {
    membership,
    plans,
    teams,
    staff,
    staffActions: new StaffActionsService({ db, staff, membership, teams, accounts: accountsPort }),
    organizations: new OrganizationService({
      db,
      membership,
      plans,
      storage: platform.storage,
      jobs: platform.jobs,
      sendMail: deps.mailJobs.send,
      publicUrl: platform.config.PUBLIC_URL,
    }),
    organizationLifecycle: new OrganizationLifecycleService({
      db,
      membership,
      accounts: accountsPort,
      jobs: platform.jobs,
      organizationJobs,
    }),
    organizationJobs,
  };
}
