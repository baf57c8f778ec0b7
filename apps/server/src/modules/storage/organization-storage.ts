import type { Database } from "../../platform/db/client.ts";
import type { MailQueue } from "../../platform/mail/mail-queue.ts";
import type { RoutedStorage } from "../../platform/storage/routed-storage.ts";
import type { OrganizationStorage, StorageResolver } from "../../platform/storage/storage-resolver.ts";
import type { MembershipService } from "../organization/membership.service.ts";
import type { OrganizationService } from "../organization/organization.service.ts";
import { claimRefusalNotice, findActiveLocation } from "./storage.repo.ts";

/**
 * Where an organization's new files go: its active bucket, else the instance's storage. Asked
 * once per upload, from the database, so every process agrees the moment settings change.
 */
export class OrganizationStorageResolver implements StorageResolver {
  constructor(
    private readonly deps: {
      db: Database;
      storage: RoutedStorage;
      membership: MembershipService;
      organizations: Pick<OrganizationService, "getTitle">;
      mail: MailQueue;
      publicUrl: string;
    },
  ) {}

  async forOrganization(organizationId: number): Promise<OrganizationStorage> {
    const active = await findActiveLocation(this.deps.db, organizationId);
    if (!active) return { driver: this.deps.storage, custom: false };
    return {
      driver: this.deps.storage.placingIn(active.id),
      custom: true,
      writeRefused: (error) => this.tellOwner(organizationId, active.id, error).catch(() => undefined),
    };
  }

  /** Error 10 is the organization's to fix: its owner hears of it, at most once an hour per bucket. */
  private async tellOwner(organizationId: number, locationId: number, error: unknown): Promise<void> {
    if (!(await claimRefusalNotice(this.deps.db, locationId, new Date()))) return;
    const owner = await this.deps.membership.findOwner(organizationId);
    if (!owner) return;
    const reason = (error instanceof Error ? error.message : String(error)).split("\n")[0]?.slice(0, 300);
    await this.deps.mail.queue({
      to: owner.email,
      subject: "Uploads are failing: check your custom storage",
      organization: { id: organizationId, name: await this.deps.organizations.getTitle(organizationId) },
      title: "Uploads are failing",
      blocks: [
        `Hello${owner.firstName ? ` ${owner.firstName}` : ""},`,
        `An upload to your organization failed because its own storage refused to store the file:\n${reason ?? ""}`,
        "Nothing was stored. Check the bucket, its permissions and the keys in the organization's storage settings, or switch back to the instance's storage there.",
        { button: "Open the storage settings", url: `${this.deps.publicUrl}/dashboard/organization/storage` },
      ],
    });
  }
}
