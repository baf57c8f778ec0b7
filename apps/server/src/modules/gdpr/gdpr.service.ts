/**
 * Owns personal data export requests: at most one pending export per user, at most five a day,
 * the job queued in the same transaction as the row, and the caller's own export list with
 * short-lived download links.
 */

import type { DataExport, DataExportCreated } from "@tarmac/contracts";
import { AppError } from "../../http/errors.ts";
import { minutesText, ThrottleError } from "../../http/throttle/throttle.ts";
import type { Database } from "../../platform/db/client.ts";
import type { JobQueue } from "../../platform/jobs/job-queue.ts";
import type { StorageDriver } from "../../platform/storage/storage-driver.ts";
import type { UserService } from "../users/user.service.ts";
import type { GdprJobs } from "./gdpr.jobs.ts";
import {
  type DataExportRow,
  findPendingExport,
  insertExport,
  listExportTimesSince,
  listUserExports,
} from "./gdpr.repo.ts";

export const exportLimits = {
  perDay: 5,
  windowMs: 24 * 3600 * 1000,
  downloadUrlSeconds: 10 * 60,
} as const;

export interface GdprDeps {
  db: Database;
  jobs: JobQueue;
  gdprJobs: GdprJobs;
  storage: StorageDriver;
  users: Pick<UserService, "lock">;
}

export class GdprService {
  constructor(private readonly deps: GdprDeps) {}

  /** Starts an export, or answers with the one still being built. */
  async requestExport(userId: number, now = new Date()): Promise<DataExportCreated> {
    const row = await this.deps.db.transaction(async (tx) => {
      if (!(await this.deps.users.lock(userId, tx))) throw AppError.unauthorized();
      const pending = await findPendingExport(tx, userId);
      if (pending) return pending;
      const recent = await listExportTimesSince(tx, userId, new Date(now.getTime() - exportLimits.windowMs));
      const oldest = recent[0];
      if (oldest && recent.length >= exportLimits.perDay) {
        const retryAfter = Math.max(
          1,
          Math.ceil((oldest.getTime() + exportLimits.windowMs - now.getTime()) / 1000),
        );
        throw new ThrottleError(
          retryAfter,
          `At most ${exportLimits.perDay} exports a day. Try again in ${minutesText(retryAfter)}.`,
        );
      }
      const created = await insertExport(tx, userId, now);
      await this.deps.jobs.send(this.deps.gdprJobs.export, { exportId: created.id }, { tx });
      return created;
    });
    return { id: row.id, status: "pending" };
  }

  async listExports(userId: number): Promise<DataExport[]> {
    const rows = await listUserExports(this.deps.db, userId);
    return Promise.all(rows.map((row) => this.present(row)));
  }

  private async present(row: DataExportRow): Promise<DataExport> {
    const downloadUrl =
      row.status === "ready" && row.storageKey
        ? await this.deps.storage.signedUrl(row.storageKey, {
            expiresInSeconds: exportLimits.downloadUrlSeconds,
            fileName: `tarmac-data-${row.createdAt.toISOString().slice(0, 10)}.json`,
            contentType: "application/json",
          })
        : null;
    return {
      id: row.id,
      status: row.status,
      created_at: row.createdAt.toISOString(),
      completed_at: row.completedAt ? row.completedAt.toISOString() : null,
      size: row.size,
      download_url: downloadUrl,
    };
  }

  /** Called inside the account-closing transaction: the files go once the account is really gone. */
  async queueUserFilesDeletion(tx: Database, userId: number): Promise<void> {
    await this.deps.jobs.send(this.deps.gdprJobs.deleteUserFiles, { userId }, { tx });
  }
}
