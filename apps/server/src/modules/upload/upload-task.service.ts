import type { UploadTaskResult } from "@tarmac/contracts";
import { AppError } from "../../http/errors.ts";
import { findUploadTask } from "./upload.repo.ts";
import type { BuildDeps } from "./upload-deps.ts";

const states = new Set(["PENDING", "STARTED", "SUCCESS", "FAILURE"]);

/** Long upload work (AAB conversion) reports here; a task of an app the caller cannot see is 404. */
export class UploadTaskService {
  constructor(private readonly deps: BuildDeps) {}

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
