import { createAdminModule } from "./modules/admin/admin.module.ts";
import {
  createAndroidSigningModule,
  installableApkPort,
} from "./modules/android-signing/android-signing.module.ts";
import { createApplicationModule } from "./modules/application/application.module.ts";
import { createAuthModule } from "./modules/auth/auth.module.ts";
import { createBillingModule } from "./modules/billing/billing.module.ts";
import { createContentModule } from "./modules/content/content.module.ts";
import { createDistributionModule } from "./modules/distribution/distribution.module.ts";
import { createFeedbackModule } from "./modules/feedback/feedback.module.ts";
import { createFilesModule } from "./modules/files/files.module.ts";
import { createGdprModule } from "./modules/gdpr/gdpr.module.ts";
import { createHealthModule } from "./modules/health/health.module.ts";
import { createIntegrationsModule } from "./modules/integrations/integrations.module.ts";
import { createIosSigningModule } from "./modules/ios-signing/ios-signing.module.ts";
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
import { createStoreModule } from "./modules/store/store.module.ts";
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
  const common = { ...users.services, ...organization.services };
  const application = createApplicationModule(platform, { ...common, ...auth.services });
  const catalog = { ...common, ...application.services };
  const people = { ...twoFactor.services, ...auth.services, ...team.services };
  const staff = createStaffModule(platform, { ...catalog, ...people });
  const storage = createStorageModule(platform, catalog);
  const tester = createTesterModule(platform, catalog);
  const distribution = createDistributionModule(platform, { ...catalog, ...tester.services });
  const builds = { ...catalog, ...storage.services };
  // Uploads confirm into the catalog and give each new app its install link: they come after both.
  // AAB -> signed APK is the android-signing module's, built after upload (it runs its tasks).
  const installableApk = installableApkPort(platform.config, () => androidSigning.services.androidApks);
  const upload = createUploadModule(platform, { ...builds, ...distribution.services, installableApk });
  const androidSigning = createAndroidSigningModule(platform, { ...builds, ...upload.services });
  const iosSigning = createIosSigningModule(platform, { ...builds, ...upload.services });
  const sendBuilds = createSendBuildsModule(platform, {
    ...catalog,
    ...tester.services,
    ...distribution.services,
  });
  // Store events are offered to webhooks only once the organization has a developer account.
  const store = createStoreModule(platform, catalog);
  const outbound = { ...catalog, ...distribution.services };
  const integrations = createIntegrationsModule(platform, { ...outbound, ...store.services });
  const feedback = createFeedbackModule(platform, { ...outbound, ...storage.services });
  const push = createPushModule(platform, catalog);
  const domain = {
    ...{ users, plan, organization, billing, twoFactor, auth, team, sso, mailServer, application },
    ...{ staff, storage, tester, distribution, upload, androidSigning, iosSigning },
    ...{ store, sendBuilds, integrations, feedback, push },
  };

  const sections = Object.values(domain).flatMap((module: AppModule) => module.personalData ?? []);
  const gdpr = createGdprModule(platform, { ...users.services, sections });
  const profile = createProfileModule(platform, { ...common, ...gdpr.services });
  const content = createContentModule(platform, { ...plan.services, ...distribution.services });
  return {
    ...domain,
    gdpr,
    profile,
    health: createHealthModule(platform),
    admin: createAdminModule(platform, { ...organization.services, ...plan.services }),
    files: createFilesModule(platform),
    content,
    webHost: createWebHostModule(platform, content.services),
  };
}

export type Modules = ReturnType<typeof createModules>;
