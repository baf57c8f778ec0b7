/**
 * Owns the background side of personal data exports: building the JSON file into storage,
 * deleting exports past their lifetime, and removing a closed account's files.
 */

import { randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import type { Database } from "../../platform/db/client.ts";
import type { PersonalDataSection } from "../../platform/personal-data.ts";
import type { StorageDriver } from "../../platform/storage/storage-driver.ts";
import type { UserService } from "../users/user.service.ts";
import {
  deleteExport,
  failStalePendingExports,
  findExport,
  listExportsCreatedBefore,
  markExportFailed,
  markExportReady,
} from "./gdpr.repo.ts";
import { writeExportDocument } from "./gdpr-document.ts";

const dayMs = 24 * 3600 * 1000;
export const exportLifetimeMs = 7 * dayMs;
/** Far longer than every retry of the export job; a row still pending by then lost its job. */
const stalePendingMs = dayMs;
const cleanupBatch = 500;

export function exportPrefixOf(userId: number): string {
  return `exports/${userId}/`;
}

export interface GdprWorkerDeps {
  db: Database;
  storage: StorageDriver;
  users: Pick<UserService, "findById">;
  /** Every module's sections, in the order they appear in the document. */
  sections: PersonalDataSection[];
}

export class GdprExportWorker {
  constructor(private readonly deps: GdprWorkerDeps) {}

  /**
   * Builds one export. A failure is thrown so the job retries; on the last attempt the row is
   * marked failed first, so the user sees the outcome and may ask again.
   */
  async buildExport(exportId: number, options: { lastAttempt: boolean }, now = new Date()): Promise<void> {
    const { db, storage } = this.deps;
    const row = await findExport(db, exportId);
    if (row?.status !== "pending") return;
    try {
      const user = await this.deps.users.findById(row.userId);
      if (!user) return; // the account closed meanwhile; its rows went with it
      const key = `${exportPrefixOf(user.id)}${randomUUID()}.json`;
      const stored = await storage.put(
        key,
        Readable.from(writeExportDocument(this.deps.sections, user, now)),
      );
      const marked = await markExportReady(db, exportId, {
        storageKey: key,
        size: stored.size,
        now: new Date(),
      });
      if (!marked) await storage.delete(key);
    } catch (error) {
      if (options.lastAttempt) await markExportFailed(db, exportId, new Date());
      throw error;
    }
  }

  /** Deletes exports older than their lifetime, file first, so no row ever points at nothing. */
  async deleteExpiredExports(now = new Date()): Promise<number> {
    const { db, storage } = this.deps;
    await failStalePendingExports(db, new Date(now.getTime() - stalePendingMs), now);
    const cutoff = new Date(now.getTime() - exportLifetimeMs);
    let deleted = 0;
    for (;;) {
      const rows = await listExportsCreatedBefore(db, cutoff, cleanupBatch);
      for (const row of rows) {
        if (row.storageKey) await storage.delete(row.storageKey);
        await deleteExport(db, row.id);
      }
      deleted += rows.length;
      if (rows.length < cleanupBatch) return deleted;
    }
  }

  /** Removes every export file of a user (their rows are deleted with the account). */
  async deleteUserFiles(userId: number): Promise<number> {
    const keys: string[] = [];
    for await (const item of this.deps.storage.list(exportPrefixOf(userId))) keys.push(item.key);
    for (const key of keys) await this.deps.storage.delete(key);
    return keys.length;
  }
}
