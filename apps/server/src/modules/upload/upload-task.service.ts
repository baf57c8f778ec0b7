import type { UploadTaskResult } from "@tarmac/contracts";
import { AppError } from "../../http/errors.ts";
import type { Database } from "../../platform/db/client.ts";
import {
  findLatestUploadTask,
  findUploadTask,
  insertUploadTask,
  type NewUploadTask,
  type UploadTaskRow,
  updateUploadTask,
} from "./upload.repo.ts";
import type { BuildDeps } from "./upload-deps.ts";

const states = new Set(["PENDING", "STARTED", "SUCCESS", "FAILURE"]);

/**
 * Long build work (AAB conversion, signing) reports here; a task of an app the caller cannot
 * see is 404. Later modules record their own tasks through it, so every task answers at
 * /api/upload-task-result/{id}/.
 */
export class UploadTaskService {
  constructor(private readonly deps: Pick<BuildDeps, "db" | "membership" | "applications">) {}

  /** Records a task, in the transaction that queues its job. */
  create(values: NewUploadTask, db: Database = this.deps.db): Promise<void> {
    return insertUploadTask(db, values);
  }

  find(taskId: string): Promise<UploadTaskRow | null> {
    return findUploadTask(this.deps.db, taskId);
  }

  update(
    taskId: string,
    values: Partial<Pick<UploadTaskRow, "state" | "errorCode" | "detail">>,
    db: Database = this.deps.db,
  ): Promise<void> {
    return updateUploadTask(db, taskId, values);
  }

  /** The newest task of one kind for a version of the organization. */
  findLatest(organizationId: number, versionId: number, kind: string): Promise<UploadTaskRow | null> {
    return findLatestUploadTask(this.deps.db, organizationId, versionId, kind);
  }

  async getResult(userId: number, taskId: string): Promise<UploadTaskResult> {
    const task = await findUploadTask(this.deps.db, taskId);
    if (!task) throw AppError.notFound();
    await this.deps.membership.getMembership(userId, task.organizationId);
    if (task.applicationId !== null) {
      await this.deps.applications.getAccessibleApp(userId, task.applicationId, "app:read");
    }
    const done = task.state === "SUCCESS" && task.applicationId !== null;
    return {
      task_id: task.id,
      state: (states.has(task.state) ? task.state : "FAILURE") as UploadTaskResult["state"],
      result: done
        ? await this.deps.applications.getRecord(task.organizationId, task.applicationId as number)
        : null,
      error_code: task.errorCode,
      detail: task.detail,
    };
  }
}
