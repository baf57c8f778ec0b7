/** The activity log of each app: who uploaded, deleted, exchanged or changed what, and when. */
import type { AppLogEntry } from "@tarmac/contracts";
import type { PageParams } from "../../http/pagination.ts";
import type { Database } from "../../platform/db/client.ts";
import type { UserService } from "../users/user.service.ts";
import { insertAppLog, listAppLogs } from "./app-log.repo.ts";

export type AppLogAction =
  | "app.created"
  | "app.updated"
  | "app.deleted"
  | "app.key_rotated"
  | "app.bundle_id_changed"
  | "version.uploaded"
  | "version.updated"
  | "version.deleted"
  | "version.file_exchanged";

export interface AppLogInput {
  organizationId: number;
  applicationId: number;
  userId: number | null;
  versionId?: number | null;
  action: AppLogAction | (string & {});
  detail?: Record<string, unknown>;
}

export class AppLogService {
  private readonly db: Database;

  constructor(private readonly deps: { db: Database; users: UserService }) {
    this.db = deps.db;
  }

  /** Written inside the caller's transaction, so the log entry exists exactly when the change does. */
  async record(input: AppLogInput, tx: Database = this.db): Promise<void> {
    await insertAppLog(tx, {
      organizationId: input.organizationId,
      applicationId: input.applicationId,
      userId: input.userId,
      versionId: input.versionId ?? null,
      action: input.action,
      detail: input.detail ?? {},
    });
  }

  async list(
    organizationId: number,
    applicationId: number,
    params: PageParams,
  ): Promise<{ count: number; results: AppLogEntry[] }> {
    const page = await listAppLogs(this.db, organizationId, applicationId, {
      limit: params.pageSize,
      offset: params.offset,
    });
    const people = await this.deps.users.summaries(
      page.rows.flatMap((row) => (row.userId === null ? [] : [row.userId])),
    );
    return {
      count: page.count,
      results: page.rows.map((row) => ({
        id: row.id,
        action: row.action,
        detail: (row.detail ?? {}) as Record<string, unknown>,
        user:
          row.userId === null
            ? null
            : {
                id: row.userId,
                email: people.get(row.userId)?.email ?? "",
                first_name: people.get(row.userId)?.firstName ?? "",
                last_name: people.get(row.userId)?.lastName ?? "",
              },
        version: row.versionId,
        created_at: row.createdAt.toISOString(),
      })),
    };
  }
}
