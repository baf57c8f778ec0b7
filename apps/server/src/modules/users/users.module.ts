import type { AppModule } from "../../platform/module.ts";
import type { Platform } from "../../platform/platform.ts";
import { type MembershipsReadAlong, TokenService } from "./token.service.ts";
import { UserService } from "./user.service.ts";

/** People and their credentials: the `users` and `auth_tokens` tables. No routes of its own. */
export function createUsersModule(platform: Platform, options: { memberships?: MembershipsReadAlong } = {}) {
  const { db } = platform.database;
  const users = new UserService({ db });
  const tokens = new TokenService({ db, identity: platform.identity, memberships: options.memberships });
  return {
    services: { users, tokens },
    personalData: [users.personalData, tokens.personalData],
  } satisfies AppModule;
}

export type UsersServices = ReturnType<typeof createUsersModule>["services"];
