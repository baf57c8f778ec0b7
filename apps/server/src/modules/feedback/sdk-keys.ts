import { timingSafeEqual } from "node:crypto";
import type { ApplicationRow } from "../application/application.service.ts";
import type { BuildRecordService } from "../application/build-record.service.ts";
import type { OrganizationService } from "../organization/organization.service.ts";

/** Equal keys in the same time whatever the first difference (no timing hints for guessing). */
function sameKey(given: string, stored: string): boolean {
  const left = Buffer.from(given);
  const right = Buffer.from(stored);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * The app an SDK call names: its app key, and the SDK key of the app's organization. Either
 * wrong (or missing) finds nothing, and the caller cannot tell which.
 */
export async function appOfSdkKeys(
  deps: {
    builds: Pick<BuildRecordService, "findAppByKey">;
    organizations: Pick<OrganizationService, "sdkKeyOf">;
  },
  keys: { sdk_key?: string | null | undefined; app_key?: string | null | undefined },
): Promise<ApplicationRow | null> {
  if (!keys.app_key || !keys.sdk_key) return null;
  const app = await deps.builds.findAppByKey(keys.app_key);
  if (!app) return null;
  const sdkKey = await deps.organizations.sdkKeyOf(app.organizationId);
  return sdkKey && sameKey(keys.sdk_key, sdkKey) ? app : null;
}
