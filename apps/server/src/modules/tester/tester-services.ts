import type { Platform } from "../../platform/platform.ts";
import type { ApplicationService } from "../application/application.service.ts";
import type { DistributionService } from "../distribution/distribution.service.ts";
import type { MembershipService } from "../organization/membership.service.ts";
import { TesterService } from "./tester.service.ts";
import { createTesterMailJobs } from "./tester-mail.jobs.ts";
import { TesterPickerService } from "./tester-picker.service.ts";
import { TesterSendService } from "./tester-send.service.ts";

export type TesterServices = ReturnType<typeof createTesterServices>;

/** Builds the tester services and registers the tester mail job. */
export function createTesterServices(
  platform: Platform,
  deps: {
    applications: ApplicationService;
    membership: MembershipService;
    appLinks: Pick<DistributionService, "ensureAppLink">;
  },
) {
  const { db } = platform.database;
  const mailJobs = createTesterMailJobs({ db, mailer: platform.mailer });
  platform.jobs.register(Object.values(mailJobs));
  const testers = new TesterService({ db, apps: deps.applications });
  const sends = new TesterSendService({
    db,
    jobs: platform.jobs,
    mailJobs,
    apps: deps.applications,
    testers,
    membership: deps.membership,
    publicUrl: platform.config.PUBLIC_URL,
    appLinks: deps.appLinks,
    mailsPerMinute: platform.config.TESTER_MAIL_RATE_PER_MINUTE,
  });
  return { testers, sends, picker: new TesterPickerService({ db, testers }), mailJobs };
}
