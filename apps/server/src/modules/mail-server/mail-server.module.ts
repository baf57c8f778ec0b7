import { SecretBox } from "../../platform/crypto/secret-box.ts";
import type { AppModule } from "../../platform/module.ts";
import type { Platform } from "../../platform/platform.ts";
import type { OrganizationServices } from "../organization/organization.module.ts";
import type { UsersServices } from "../users/users.module.ts";
import { registerMailServerRoutes } from "./mail-server.routes.ts";
import { MailServerService } from "./mail-server.service.ts";
import { OrganizationMailerCache } from "./organization-mailer-cache.ts";

/** Purpose of the SecretBox key that seals organizations' SMTP passwords. */
const mailServerSecretPurpose = "organization-mail-server";

/** Organizations' own mail servers: settings, a test mail, and sending their mail through them. */
export function createMailServerModule(platform: Platform, deps: UsersServices & OrganizationServices) {
  const { db } = platform.database;
  const allowPrivateTargets = platform.config.ALLOW_PRIVATE_NETWORK_TARGETS;
  const box = new SecretBox(platform.config.SECRET_KEY, mailServerSecretPurpose);
  const mailers = new OrganizationMailerCache({ db, box, allowPrivateTargets });
  platform.mail.router.useOrganizationMailers(
    (organizationId) => mailers.mailerFor(organizationId),
    () => mailers.close(),
  );
  const mailServers = new MailServerService({
    db,
    membership: deps.membership,
    organizations: deps.organizations,
    users: deps.users,
    box,
    allowPrivateTargets,
    mail: platform.mail.router,
  });
  return {
    services: { mailServers },
    routes: (app) => registerMailServerRoutes(app, { mailServers }),
  } satisfies AppModule;
}
