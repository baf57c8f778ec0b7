import type { StorageDriver } from "./storage-driver.ts";

export interface OrganizationStorage {
  driver: StorageDriver;
  /** True when the organization brought its own storage: its failures are the organization's to fix. */
  custom: boolean;
}

/** Picks where an organization's files live; one place, so custom storage plugs in later. */
export interface StorageResolver {
  forOrganization(organizationId: number): Promise<OrganizationStorage>;
}

/** Every organization on the platform storage. */
export function platformStorageResolver(storage: StorageDriver): StorageResolver {
  return {
    async forOrganization() {
      return { driver: storage, custom: false };
    },
  };
}

/** A resolver that can be swapped while the process runs (when storage settings change, and in tests). */
export class SwitchableStorageResolver implements StorageResolver {
  constructor(private current: StorageResolver) {}

  use(resolver: StorageResolver): void {
    this.current = resolver;
  }

  forOrganization(organizationId: number): Promise<OrganizationStorage> {
    return this.current.forOrganization(organizationId);
  }
}
