import { randomUUID } from "node:crypto";
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import type { AppType } from "@tarmac/inspector";
import type { Database } from "../../platform/db/client.ts";
import type { BuildCommitService, CommitResult } from "./build-commit.service.ts";
import { inspectStoredBuild } from "./build-inspection.ts";
import { findUploadTasks, insertUploadTask, type UploadTaskRow, updateUploadTask } from "./upload.repo.ts";
import type { BuildDeps } from "./upload-deps.ts";
import { buildKey } from "./upload-intake.ts";

/**
 * Builds made on the server from another build (a re-signed IPA): their background task is an
 * upload task (polled at /api/upload-task-result/{id}/), and the file becomes a new version of
 * the same app, stored and inspected like an upload.
 */
export class DerivedBuildService {
  constructor(private readonly deps: BuildDeps & { commits: BuildCommitService }) {}

  async createTask(
    tx: Database,
    task: { organizationId: number; userId: number; applicationId: number; versionId: number; kind: string },
  ): Promise<string> {
    const id = randomUUID();
    await insertUploadTask(tx, { id, ...task });
    return id;
  }

  /** The tasks by id, in one query (ids of other kinds of work are simply absent). */
  listTasks(taskIds: string[]): Promise<UploadTaskRow[]> {
    return findUploadTasks(this.deps.db, taskIds);
  }

  updateTask(
    taskId: string,
    values: Partial<Pick<UploadTaskRow, "state" | "errorCode" | "detail">>,
    db: Database = this.deps.db,
  ): Promise<void> {
    return updateUploadTask(db, taskId, values);
  }

  /**
   * Stores `filePath` and adds it as a new version of `source`'s app. Its build number is the
   * source's with ".rN" appended (the first N free), so it sorts right after the build it was
   * made from and never collides with it.
   */
  async addDerivedVersion(
    userId: number,
    source: {
      organizationId: number;
      applicationId: number;
      appType: AppType;
      buildNumber: string;
      comment: string;
    },
    filePath: string,
    fileName: string,
  ): Promise<CommitResult> {
    const storage = await this.deps.storage.forOrganization(source.organizationId);
    const stored = await storage.driver.put(buildKey(source.organizationId), createReadStream(filePath));
    const size = (await stat(filePath)).size;
    const staged = await inspectStoredBuild(
      {
        key: stored.key,
        size,
        sha256: stored.sha256,
        fileName,
        contentType: "application/octet-stream",
        storage,
        organizationId: source.organizationId,
      },
      source.appType,
    );
    try {
      return await this.deps.commits.commit(
        userId,
        source.organizationId,
        { kind: "version", appId: source.applicationId },
        { readyToSale: true, comment: source.comment, derivedFrom: { buildNumber: source.buildNumber } },
        async () => ({ staged }),
      );
    } catch (error) {
      await storage.driver.delete(stored.key).catch(() => undefined);
      if (staged.iconKey) await storage.driver.delete(staged.iconKey).catch(() => undefined);
      throw error;
    }
  }
}
