import { createAdminModule } from "./modules/admin/admin.module.ts";
import { createApplicationModule } from "./modules/application/application.module.ts";
import type { ApplicationPorts } from "./modules/application/application-ports.ts";
import { createAuthModule } from "./modules/auth/auth.module.ts";
import { createBillingModule } from "./modules/billing/billing.module.ts";
import { createDistributionModule } from "./modules/distribution/distribution.module.ts";
import { createFeedbackModule } from "./modules/feedback/feedback.module.ts";
import { createFilesModule } from "./modules/files/files.module.ts";
import { createGdprModule } from "./modules/gdpr/gdpr.module.ts";
import { createHealthModule } from "./modules/health/health.module.ts";
import { createIntegrationsModule } from "./modules/integrations/integrations.module.ts";
import { createMailServerModule } from "./modules/mail-server/mail-server.module.ts";
import {
  createOrganizationModule,
  membershipsReadWithToken,
} from "./modules/organization/organization.module.ts";
import { createPlanModule } from "./modules/plan/plan.module.ts";
import { createProfileModule } from "./modules/profile/profile.module.ts";
import { createPushModule } from "./modules/push/push.module.ts";
import { createSendBuildsModule } from "./modules/send-builds/send-builds.module.ts";
import { createSsoModule } from "./modules/sso/sso.module.ts";
import { createStaffModule } from "./modules/staff/staff.module.ts";
import { createStorageModule } from "./modules/storage/storage.module.ts";
import { createTeamModule } from "./modules/team/team.module.ts";
import { createTesterModule } from "./modules/tester/tester.module.ts";
import { createTwoFactorModule } from "./modules/two-factor/two-factor.module.ts";
import { createUploadModule } from "./modules/upload/upload.module.ts";
import { createUsersModule } from "./modules/users/users.module.ts";
import { createWebHostModule } from "./modules/web-host/web-host.module.ts";
import type { AppModule } from "./platform/module.ts";
import type { Platform } from "./platform/platform.ts";

/**
 * The one wiring place: every module, each built from the platform and the services of the
 * modules before it. Their order is the order of their routes; the web app's catch-all is last.
 */
export function createModules(platform: Platform) {
  // Each request's token is read with the caller's memberships, in one statement.
  const users = createUsersModule(platform, { memberships: membershipsReadWithToken });
  const plan = createPlanModule(platform);
  const organization = createOrganizationModule(platform, { ...users.services, ...plan.services });
  const billing = createBillingModule(platform, { ...organization.services, ...plan.services });
  const twoFactor = createTwoFactorModule(platform, users.services);
  const auth = createAuthModule(platform, {
    ...users.services,
    ...twoFactor.services,
    ...organization.services,
  });
  const team = createTeamModule(platform, organization.services);
  const sso = createSsoModule(platform, {
    ...users.services,
    ...organization.services,
    ...auth.services,
    ...twoFactor.services,
  });
  const mailServer = createMailServerModule(platform, { ...users.services, ...organization.services });
  // URLs of the application module that later modules answer (see application-ports.ts).
  const ports: ApplicationPorts = {
    confirmBuild: (...args) => upload.services.creates.confirm(...args),
    exchangeBuild: (...args) => upload.services.exchanges.exchange(...args),
    appDistributions: (...args) => distribution.services.distributions.listForApp(...args),
  };
  const common = { ...users.services, ...organization.services };
  // The app's install page, answered by the distribution module (built after the upload module).
  const installPage = (app: { id: number; organizationId: number }) =>
    distribution.services.distributions.installPageOf(app);
  const application = createApplicationModule(platform, { ...common, ...auth.services, ports });
  const staff = createStaffModule(platform, {
    ...common,
    ...twoFactor.services,
    ...auth.services,
    ...team.services,
    ...application.services,
  });
  const storage = createStorageModule(platform, { ...organization.services, ...application.services });
  const upload = createUploadModule(platform, {
    ...common,
    ...application.services,
    ...storage.services,
    installPage,
  });
  const tester = createTesterModule(platform, { ...users.services, ...application.services });
  const distribution = createDistributionModule(platform, {
    ...organization.services,
    ...application.services,
    ...tester.services,
  });
  const sendBuilds = createSendBuildsModule(platform, {
    ...common,
    ...application.services,
    ...tester.services,
    ...distribution.services,
  });
  const outbound = { ...organization.services, ...application.services, installPage };
  const integrations = createIntegrationsModule(platform, outbound);
  const feedback = createFeedbackModule(platform, { ...outbound, ...users.services, ...storage.services });
  const push = createPushModule(platform, { ...organization.services, ...application.services });
  const domain = {
    ...{ users, plan, organization, billing, twoFactor, auth, team, sso, mailServer, application },
    ...{ staff, storage, upload, tester, distribution, sendBuilds, integrations, feedback, push },
  };

  const sections = Object.values(domain).flatMap((module: AppModule) => module.personalData ?? []);
  const gdpr = createGdprModule(platform, { ...users.services, sections });
  const profile = createProfileModule(platform, { ...common, ...gdpr.services });
  return {
    ...domain,
    gdpr,
    profile,
    health: createHealthModule(platform),
    admin: createAdminModule(platform, { ...organization.services, ...plan.services }),
    files: createFilesModule(platform),
    webHost: createWebHostModule(platform),
  };
}

export type Modules = ReturnType<typeof createModules>;
