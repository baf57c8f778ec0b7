import { z } from "zod";
import { SecretBox } from "../../platform/crypto/secret-box.ts";
import { defineJob } from "../../platform/jobs/define-job.ts";
import type { AppModule } from "../../platform/module.ts";
import type { Platform } from "../../platform/platform.ts";
import type { AuthServices } from "../auth/auth.module.ts";
import type { OrganizationServices } from "../organization/organization.module.ts";
import type { UsersServices } from "../users/users.module.ts";
import { OidcSettingsService } from "./oidc-settings.service.ts";
import { samlRequestMaxAgeMs } from "./saml-client.ts";
import { SamlSettingsService } from "./saml-settings.service.ts";
import { deleteExpiredLoginStates, deleteExpiredSamlRecords } from "./sso.repo.ts";
import { registerSsoRoutes } from "./sso.routes.ts";
import { SsoLoginService } from "./sso-login.service.ts";
import { SsoSessionsService } from "./sso-sessions.service.ts";

/** Purpose of the SecretBox key that seals identity-provider secrets. */
const ssoSecretPurpose = "organization-sso";

/** Single sign-on: the organization's identity provider, and signing in through it. */
export function createSsoModule(
  platform: Platform,
  deps: UsersServices & OrganizationServices & AuthServices,
) {
  const { db } = platform.database;
  const { config } = platform;
  const box = new SecretBox(config.SECRET_KEY, ssoSecretPurpose);
  const allowPrivateTargets = config.ALLOW_PRIVATE_NETWORK_TARGETS;
  const common = {
    db,
    box,
    organizations: deps.organizations,
    membership: deps.membership,
    publicUrl: config.PUBLIC_URL,
    allowPrivateTargets,
  };
  const oidc = new OidcSettingsService(common);
  const saml = new SamlSettingsService(common);
  const logins = new SsoLoginService({ ...common, users: deps.users, tokens: deps.tokens });
  const sessions = new SsoSessionsService({ membership: deps.membership, tokens: deps.tokens });
  deps.passwordLogin.refusePasswordsWhen((userId) => logins.passwordRefusal(userId));
  const cleanup = defineJob({
    name: "sso.cleanup",
    schema: z.object({}),
    retry: { limit: 0 },
    handler: async () => {
      await deleteExpiredLoginStates(db);
      await deleteExpiredSamlRecords(db, new Date(), samlRequestMaxAgeMs);
    },
  });
  return {
    services: { ssoLogins: logins },
    routes: (app) => registerSsoRoutes(app, { oidc, saml, logins, sessions, config }),
    jobs: [cleanup],
    schedules: [{ job: cleanup, cron: "23 * * * *" }],
  } satisfies AppModule;
}
