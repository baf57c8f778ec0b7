import type { StorageDriver } from "./storage-driver.ts";

export interface OrganizationStorage {
  driver: StorageDriver;
  /** True when the organization brought its own storage: its failures are the organization's to fix. */
  custom: boolean;
  /** Tells the organization its storage refused a write (error 10); never throws. */
  writeRefused?: (error: unknown) => Promise<void>;
}

/** Picks where an organization's new files go (its own bucket, or the instance's storage). */
export interface StorageResolver {
  forOrganization(organizationId: number): Promise<OrganizationStorage>;
}
