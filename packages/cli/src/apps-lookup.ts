import type { ApplicationRecord } from "@tarmac/contracts";
import { type Api, allPages } from "./api.ts";
import { CliError, exitCodes } from "./exit-codes.ts";

interface Organization {
  id: number;
  name?: string;
}

/** Every app the key's user sees, in each of their organizations. */
export async function listApps(api: Api): Promise<ApplicationRecord[]> {
  const organizations = await allPages<Organization>(api, "/api/organizations/");
  const apps: ApplicationRecord[] = [];
  for (const organization of organizations)
    apps.push(...(await allPages<ApplicationRecord>(api, `/api/applications/?org=${organization.id}`)));
  return apps;
}

/**
 * An app named by its key (what CI is given) or its id. The API finds apps by id within an
 * organization, so a key is looked up in the lists.
 */
export async function findApp(api: Api, keyOrId: string): Promise<ApplicationRecord> {
  const apps = await listApps(api);
  const found =
    apps.find((app) => app.app_key === keyOrId) ??
    (/^\d+$/.test(keyOrId) ? apps.find((app) => app.id === Number(keyOrId)) : undefined);
  if (!found)
    throw new CliError(
      exitCodes.auth,
      `no app "${keyOrId}" is visible with this API key (check the app key)`,
    );
  return found;
}
