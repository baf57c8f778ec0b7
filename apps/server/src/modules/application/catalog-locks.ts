import type { Database } from "../../platform/db/client.ts";
import { lockCatalogRows, type RowLock } from "./release.repo.ts";

/**
 * Row locks on projects and apps, for writers of other modules that must serialize with the
 * catalog's own (see lockCatalogRows for the order every writer takes).
 */
export class CatalogLocks {
  /** Serializes work on one app (e.g. creating its permanent install link). */
  app(applicationId: number, tx: Database): Promise<void> {
    return lockCatalogRows(tx, { appIds: [applicationId] }, "update");
  }

  /** Row locks taken before the organization's: writers that also lock the organization call this first. */
  rows(rows: { projectIds?: number[]; appIds?: number[] }, mode: RowLock, tx: Database): Promise<void> {
    return lockCatalogRows(tx, rows, mode);
  }
}
