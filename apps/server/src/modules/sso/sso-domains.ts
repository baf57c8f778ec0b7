import type { Database } from "../../platform/db/client.ts";
import { listConnectionsForDomain } from "./sso.repo.ts";

/** A domain leads its people to one organization's sign-in: the first to claim it keeps it. */
export async function domainsClaimedElsewhere(
  db: Database,
  organizationId: number,
  domains: string[],
): Promise<string[]> {
  const claimed: string[] = [];
  for (const domain of new Set(domains)) {
    const owners = await listConnectionsForDomain(db, domain);
    if (owners.some((row) => row.organizationId !== organizationId)) claimed.push(domain);
  }
  return claimed;
}
