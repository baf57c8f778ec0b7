import type { ApplicationRecord, CreateAppInput } from "@tarmac/contracts";
import { AppError } from "../../http/errors.ts";
import { canOnApp } from "../application/application.policy.ts";
import type { BuildCommitService, CommitTarget } from "./build-commit.service.ts";
import { releasePreloads, stagedFromPreload, takePreload } from "./preload-store.ts";
import type { BuildDeps } from "./upload-deps.ts";

export type ConfirmOutcome = { status: 201; record: ApplicationRecord } | { status: 202; taskId: string };

/** The confirm call: a preload becomes a new app or a new version of an app. */
export class BuildCreateService {
  constructor(private readonly deps: BuildDeps & { commits: BuildCommitService }) {}

  async confirm(userId: number, input: CreateAppInput, appId?: number): Promise<ConfirmOutcome> {
    let organizationId = input.organization;
    let target: CommitTarget;
    if (appId !== undefined) {
      const { app } = await this.deps.applications.getAccessibleApp(userId, appId, "build:upload");
      if (app.organizationId !== organizationId) throw AppError.notFound();
      organizationId = app.organizationId;
      target = { kind: "version", appId };
    } else {
      const member = await this.deps.membership.getMembership(userId, organizationId);
      if (!canOnApp(member.role, "app:create", { visible: false })) throw AppError.forbidden();
      target = {
        kind: "new",
        draft: {
          projectTitle: input.project_title,
          title: input.title,
          projectId: input.project_app ?? null,
          description: input.description,
          environment: input.environment,
          slackWebhook: input.slack_webhook,
          slackChannel: input.slack_channel,
          readyToSale: input.ready_to_sale,
        },
      };
    }
    const result = await this.deps.commits.commit(
      userId,
      organizationId,
      target,
      {
        whatsNew: input.whats_new,
        comment: input.comment,
        readyToSale: input.ready_to_sale,
        uniqueAppIdChanged: input.unique_app_id_changed,
        convertToApk: input.convert_to_apk,
        version: input.new_version,
        buildNumber: input.build_version_number,
      },
      async (tx) => {
        const preload = await takePreload(tx, input.preload_path, { userId, organizationId, appId });
        return {
          staged: stagedFromPreload(preload),
          release: (db) => releasePreloads(this.deps.usage, db, [preload]),
        };
      },
    );
    if (result.taskId) return { status: 202, taskId: result.taskId };
    return {
      status: 201,
      record: await this.deps.applications.getRecord(organizationId, result.applicationId),
    };
  }
}
