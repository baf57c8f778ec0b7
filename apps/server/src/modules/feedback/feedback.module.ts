import type { AppModule } from "../../platform/module.ts";
import type { Platform } from "../../platform/platform.ts";
import type { ApplicationServices } from "../application/application.module.ts";
import type { DistributionServices } from "../distribution/distribution.module.ts";
import type { OrganizationServices } from "../organization/organization.module.ts";
import type { StorageServices } from "../storage/storage.module.ts";
import type { UsersServices } from "../users/users.module.ts";
import { listFeedbackOfPerson, listImageKeys } from "./feedback.repo.ts";
import { registerFeedbackRoutes } from "./feedback.routes.ts";
import { FeedbackMailService } from "./feedback-mail.service.ts";
import { FeedbackSubmitService } from "./feedback-submit.service.ts";
import { FeedbackTriageService } from "./feedback-triage.service.ts";
import { registerSdkRoutes } from "./sdk.routes.ts";
import { SdkService } from "./sdk.service.ts";

/** The Updraft SDK protocol (update checks, feedback from the app) and the triage of that feedback. */
export function createFeedbackModule(
  platform: Platform,
  deps: UsersServices & OrganizationServices & ApplicationServices & StorageServices & DistributionServices,
) {
  const { db } = platform.database;
  const publicUrl = platform.config.PUBLIC_URL;
  const sdk = new SdkService({
    builds: deps.builds,
    releases: deps.releases,
    organizations: deps.organizations,
    installPage: (app) => deps.distributions.installPageOf(app),
  });
  const mails = new FeedbackMailService({
    db,
    jobs: platform.jobs,
    mail: platform.mail,
    applications: deps.applications,
    membership: deps.membership,
    organizations: deps.organizations,
    users: deps.users,
    publicUrl,
  });
  const submissions = new FeedbackSubmitService({
    db,
    builds: deps.builds,
    organizations: deps.organizations,
    storage: deps.storageResolver,
    events: platform.events,
    mails,
    publicUrl,
  });
  const triage = new FeedbackTriageService({
    db,
    applications: deps.applications,
    releases: deps.releases,
    membership: deps.membership,
    users: deps.users,
    storage: platform.storage,
  });
  deps.appDeletions.addDependentFiles((appIds, tx) => listImageKeys(tx, appIds));
  return {
    services: { feedbackTriage: triage },
    routes: (app) => {
      registerSdkRoutes(app, { sdk, submissions });
      registerFeedbackRoutes(app, { triage, publicUrl });
    },
    jobs: [mails.digestJob],
    personalData: [
      {
        name: "feedback",
        load: async (person) =>
          (await listFeedbackOfPerson(db, person)).map((row) => ({
            app: row.applicationId,
            tag: row.tag,
            description: row.description,
            email: row.email,
            build_version: row.buildVersion,
            device_name: row.deviceName,
            system_version: row.systemVersion,
            assigned_to_you: row.assigneeId === person.id,
            created_at: row.createdAt.toISOString(),
          })),
      },
    ],
  } satisfies AppModule;
}
