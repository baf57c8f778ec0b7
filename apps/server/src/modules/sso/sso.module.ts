import { z } from "zod";
import { cookieOptionsOf } from "../../http/auth.ts";
import { SecretBox } from "../../platform/crypto/secret-box.ts";
import { defineJob } from "../../platform/jobs/define-job.ts";
import type { AppModule } from "../../platform/module.ts";
import { txtLookup } from "../../platform/net/dns-txt.ts";
import type { Platform } from "../../platform/platform.ts";
import type { AuthServices } from "../auth/auth.module.ts";
import type { OrganizationServices } from "../organization/organization.module.ts";
import type { TwoFactorServices } from "../two-factor/two-factor.module.ts";
import type { UsersServices } from "../users/users.module.ts";
import { OidcSettingsService } from "./oidc-settings.service.ts";
import { samlRequestMaxAgeMs } from "./saml-client.ts";
import { SamlSettingsService } from "./saml-settings.service.ts";
import { deleteExpiredLoginStates, deleteExpiredSamlRecords } from "./sso.repo.ts";
import { registerSsoRoutes } from "./sso.routes.ts";
import { registerSsoAccountRoutes } from "./sso-account.routes.ts";
import { SsoAdmission } from "./sso-admission.service.ts";
import { SsoDirectory } from "./sso-directory.service.ts";
import { registerSsoDomainRoutes } from "./sso-domains.routes.ts";
import { DomainClaimsService, domainOfEmail } from "./sso-domains.service.ts";
import {
  deleteExpiredTickets,
  forgetUnprovenCreations,
  listIdentitiesOfUser,
} from "./sso-identities.repo.ts";
import { SsoLinksService } from "./sso-links.service.ts";
import { SsoLoginService } from "./sso-login.service.ts";
import { SecondFactorTickets } from "./sso-second-factor.service.ts";
import { SsoSessionsService } from "./sso-sessions.service.ts";

/** Purpose of the SecretBox key that seals identity-provider secrets. */
const ssoSecretPurpose = "organization-sso";

/** Single sign-on: the organization's identity provider, its proven domains, and signing in through it. */
export function createSsoModule(
  platform: Platform,
  deps: UsersServices & OrganizationServices & AuthServices & TwoFactorServices,
) {
  const { db } = platform.database;
  const { config } = platform;
  const box = new SecretBox(config.SECRET_KEY, ssoSecretPurpose);
  const common = {
    db,
    box,
    organizations: deps.organizations,
    membership: deps.membership,
    publicUrl: config.PUBLIC_URL,
    allowPrivateTargets: config.ALLOW_PRIVATE_NETWORK_TARGETS,
  };
  const domains = new DomainClaimsService({
    db,
    membership: deps.membership,
    lookupTxt: txtLookup(config.DNS_SERVERS),
  });
  const oidc = new OidcSettingsService(common);
  const saml = new SamlSettingsService(common);
  const tickets = new SecondFactorTickets({
    db,
    users: deps.users,
    tokens: deps.tokens,
    twoFactor: deps.twoFactor,
  });
  const admission = new SsoAdmission({
    db,
    users: deps.users,
    tokens: deps.tokens,
    membership: deps.membership,
    organizations: deps.organizations,
    usage: deps.usage,
    domains,
    tickets,
    mail: platform.mail,
    publicUrl: config.PUBLIC_URL,
  });
  const logins = new SsoLoginService({ ...common, admission });
  const links = new SsoLinksService({
    db,
    users: deps.users,
    organizations: deps.organizations,
    domains,
    logins,
  });
  const sessions = new SsoSessionsService({ membership: deps.membership, tokens: deps.tokens });
  const directory = new SsoDirectory({
    db,
    users: deps.users,
    membership: deps.membership,
    organizations: deps.organizations,
    domains,
  });
  deps.passwordLogin.refusePasswordsWhen((userId) => directory.passwordRefusal(userId));
  // Whoever proves the mailbox holds the account: a provider that only named the address loses it.
  deps.accountHooks.onMailboxProven(async (userId, tx) => {
    const user = await deps.users.findById(userId, tx);
    if (user) await forgetUnprovenCreations(tx, userId, domainOfEmail(user.email));
  });
  const cleanup = defineJob({
    name: "sso.cleanup",
    schema: z.object({}),
    retry: { limit: 0 },
    handler: async () => {
      await deleteExpiredLoginStates(db);
      await deleteExpiredSamlRecords(db, new Date(), samlRequestMaxAgeMs);
      await deleteExpiredTickets(db, new Date());
    },
  });
  const recheckDomains = defineJob({
    name: "sso.recheck-domains",
    schema: z.object({}),
    retry: { limit: 0 },
    timeoutSeconds: 1800,
    handler: async () => {
      await domains.recheckAll();
    },
  });
  return {
    services: { ssoLogins: logins, ssoDomains: domains },
    routes: async (app) => {
      await registerSsoRoutes(app, { oidc, saml, logins, directory, sessions, config });
      registerSsoDomainRoutes(app, { domains });
      registerSsoAccountRoutes(app, { links, tickets, cookies: cookieOptionsOf(config) });
    },
    jobs: [cleanup, recheckDomains],
    personalData: [
      {
        name: "single_sign_on",
        load: async (person) => {
          const identities = await listIdentitiesOfUser(db, person.id);
          const names = await deps.organizations.namesOf(
            identities.map((identity) => identity.organizationId),
          );
          return identities.map((identity) => ({
            org_id: identity.organizationId,
            title: names.get(identity.organizationId)?.title ?? "",
            origin: identity.origin,
            since: identity.createdAt.toISOString(),
          }));
        },
      },
    ],
    schedules: [
      { job: cleanup, cron: "23 * * * *" },
      { job: recheckDomains, cron: "7 4 * * *" },
    ],
  } satisfies AppModule;
}
