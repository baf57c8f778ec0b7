import { buffer } from "node:stream/consumers";
import { scaledPng } from "@tarmac/inspector";
import type { Database } from "../../platform/db/client.ts";
import type { StorageDriver } from "../../platform/storage/storage-driver.ts";
import { findOrganizationById } from "./organization.repo.ts";

/** Twice the 48 px the mail shows, for sharp logos on high-density screens. */
const mailLogoBox = { width: 480, height: 96 };

/** Enough for every organization a busy worker mails in a while; each entry is a few KB. */
const cachedLogos = 64;

/**
 * Organizations' logos made small for mail: read from storage and scaled to PNG once per logo.
 * A logo's key changes whenever it is replaced, so a kept copy is never stale, and a process
 * that does not have one reads it again: nothing here needs sharing between processes.
 */
export class MailLogos {
  private readonly byKey = new Map<string, Promise<Buffer | null>>();

  constructor(private readonly deps: { db: Database; storage: StorageDriver }) {}

  async logoOf(organizationId: number, tx: Database = this.deps.db): Promise<Buffer | null> {
    const key = (await findOrganizationById(tx, organizationId))?.logoKey;
    if (!key) return null;
    let logo = this.byKey.get(key);
    if (!logo) {
      logo = this.scaled(key);
      this.byKey.set(key, logo);
      if (this.byKey.size > cachedLogos) this.byKey.delete(this.byKey.keys().next().value as string);
    }
    return logo;
  }

  /** A logo that cannot be read or decoded is left out of the mail, which still goes. */
  private async scaled(key: string): Promise<Buffer | null> {
    try {
      return (await scaledPng(await buffer(await this.deps.storage.read(key)), mailLogoBox))?.png ?? null;
    } catch {
      this.byKey.delete(key);
      return null;
    }
  }
}
