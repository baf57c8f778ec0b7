import type { AppModule } from "../../platform/module.ts";
import type { Platform } from "../../platform/platform.ts";
import type { OrganizationServices } from "../organization/organization.module.ts";
import { registerTeamRoutes } from "./team.routes.ts";
import { TeamService } from "./team.service.ts";
import { teamPersonalData } from "./team-personal-data.ts";

/** Teams of an organization and their members (the `teams` and `team_members` tables). */
export function createTeamModule(platform: Platform, deps: OrganizationServices) {
  const { db } = platform.database;
  const teams = new TeamService({ db, membership: deps.membership, lists: platform.lists });
  return {
    services: { teams },
    routes: (app) => registerTeamRoutes(app, { teams, publicUrl: platform.config.PUBLIC_URL }),
    personalData: [teamPersonalData(db, deps.organizations)],
  } satisfies AppModule;
}

export type TeamServices = ReturnType<typeof createTeamModule>["services"];
