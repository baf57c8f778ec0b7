import { cookieOptionsOf } from "../../http/auth.ts";
import type { AppModule } from "../../platform/module.ts";
import type { Platform } from "../../platform/platform.ts";
import type { OrganizationServices } from "../organization/organization.module.ts";
import type { TwoFactorServices } from "../two-factor/two-factor.module.ts";
import type { UsersServices } from "../users/users.module.ts";
import { AccountService } from "./account.service.ts";
import { AccountHooks } from "./account-hooks.ts";
import { registerAuthRoutes } from "./auth.routes.ts";
import { authPersonalData } from "./auth-personal-data.ts";
import { LoginService } from "./login.service.ts";
import { PasswordService } from "./password.service.ts";

/** Registration, activation and invitations, sign-in and out, passwords (the `user_codes` table). */
export function createAuthModule(
  platform: Platform,
  deps: UsersServices & TwoFactorServices & Pick<OrganizationServices, "membership">,
) {
  const accountDeps = {
    db: platform.database.db,
    users: deps.users,
    tokens: deps.tokens,
    mail: platform.mail,
    publicUrl: platform.config.PUBLIC_URL,
    hooks: new AccountHooks(),
  };
  const accounts = new AccountService(accountDeps);
  const login = new LoginService({ ...accountDeps, twoFactor: deps.twoFactor, membership: deps.membership });
  const passwords = new PasswordService(accountDeps);
  return {
    services: { accounts, passwordLogin: login, accountHooks: accountDeps.hooks },
    routes: (app) =>
      registerAuthRoutes(app, { accounts, login, passwords, cookies: cookieOptionsOf(platform.config) }),
    personalData: authPersonalData(platform.database.db),
  } satisfies AppModule;
}

export type AuthServices = ReturnType<typeof createAuthModule>["services"];
