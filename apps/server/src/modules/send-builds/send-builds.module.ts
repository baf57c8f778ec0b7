import type { AppModule } from "../../platform/module.ts";
import type { Platform } from "../../platform/platform.ts";
import type { ApplicationServices } from "../application/application.module.ts";
import type { DistributionServices } from "../distribution/distribution.module.ts";
import type { OrganizationServices } from "../organization/organization.module.ts";
import type { TesterServices } from "../tester/tester.module.ts";
import type { UsersServices } from "../users/users.module.ts";
import { RecipientMembers } from "./recipient-members.ts";
import { RecipientPickerService } from "./recipient-picker.service.ts";
import { createSendBuildsJobs } from "./send-builds.jobs.ts";
import { registerSendBuildsRoutes } from "./send-builds.routes.ts";
import { SendBuildsService } from "./send-builds.service.ts";

/** "Send to testers": mails with install links to testers, members and saved addresses (`tester_mails`). */
export function createSendBuildsModule(
  platform: Platform,
  deps: UsersServices & OrganizationServices & ApplicationServices & TesterServices & DistributionServices,
) {
  const { db } = platform.database;
  const mailJobs = createSendBuildsJobs({ db, mail: platform.mail.router });
  const members = new RecipientMembers({
    membership: deps.membership,
    projectMembership: deps.projectMembership,
  });
  const sends = new SendBuildsService({
    db,
    jobs: platform.jobs,
    mailJobs,
    releases: deps.releases,
    catalogLocks: deps.catalogLocks,
    testers: deps.testers,
    membership: deps.membership,
    organizations: deps.organizations,
    users: deps.users,
    members,
    publicUrl: platform.config.PUBLIC_URL,
    appLinks: deps.distributions,
    mailsPerMinute: platform.config.TESTER_MAIL_RATE_PER_MINUTE,
    mail: platform.mail.router,
    events: platform.events,
  });
  const picker = new RecipientPickerService({ db, testers: deps.testers, releases: deps.releases, members });
  return {
    services: { sends },
    routes: (app) => registerSendBuildsRoutes(app, { sends, picker }),
    jobs: Object.values(mailJobs),
  } satisfies AppModule;
}
