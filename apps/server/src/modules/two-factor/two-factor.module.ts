import type { AppModule } from "../../platform/module.ts";
import type { Platform } from "../../platform/platform.ts";
import type { UsersServices } from "../users/users.module.ts";
import { registerTwoFactorRoutes } from "./two-factor.routes.ts";
import { TwoFactorService } from "./two-factor.service.ts";

/** TOTP second factor and recovery codes (the `recovery_codes` table; the 2FA columns of users). */
export function createTwoFactorModule(platform: Platform, deps: UsersServices) {
  const twoFactor = new TwoFactorService({
    db: platform.database.db,
    users: deps.users,
    secretKey: platform.config.SECRET_KEY,
  });
  return {
    services: { twoFactor },
    routes: (app) => registerTwoFactorRoutes(app, { twoFactor }),
    personalData: [twoFactor.personalData],
  } satisfies AppModule;
}

export type TwoFactorServices = ReturnType<typeof createTwoFactorModule>["services"];
