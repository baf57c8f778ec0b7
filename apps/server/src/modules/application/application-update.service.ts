/** Changing an app's settings and rotating its upload key. */
import { randomUUID } from "node:crypto";
import type { ApplicationRecord, UpdateAppInput } from "@tarmac/contracts";
import { AppError } from "../../http/errors.ts";
import type { SecretBox } from "../../platform/crypto/secret-box.ts";
import type { Database } from "../../platform/db/client.ts";
import type { AppLogService } from "./app-log.service.ts";
import { findSiblingInEnvironment, renameProject, updateApplication } from "./application.repo.ts";
import type { ApplicationService } from "./application.service.ts";

/** App keys appear in CI upload paths and install links: unguessable, URL-safe. */
export function generateAppKey(): string {
  return randomUUID();
}

export class ApplicationUpdateService {
  constructor(
    private readonly deps: {
      db: Database;
      core: ApplicationService;
      appLogs: AppLogService;
      slackWebhookBox: SecretBox;
    },
  ) {}

  async update(userId: number, appId: number, input: UpdateAppInput): Promise<ApplicationRecord> {
    const { app, member } = await this.deps.core.getAccessibleApp(userId, appId, "app:update");
    const changes = this.appChanges(input);
    if (changes.environment !== undefined && changes.environment !== app.environment) {
      if (await findSiblingInEnvironment(this.deps.db, app, changes.environment)) {
        throw AppError.validation({
          environment: ["The project already has an app of this platform in this environment."],
        });
      }
    }
    const changed = [
      ...Object.keys(changes).map((key) => (key === "slackWebhookSealed" ? "slack_webhook" : snake(key))),
      ...(input.project_title !== undefined ? ["project_title"] : []),
    ];
    return this.deps.db.transaction(async (tx) => {
      if (input.project_title !== undefined) {
        await renameProject(tx, app.organizationId, app.projectId, input.project_title);
      }
      // Renaming the project alone still counts as activity on the app.
      const updated = await updateApplication(tx, app.organizationId, app.id, changes);
      if (!updated) throw AppError.notFound();
      await this.deps.appLogs.record(
        {
          organizationId: app.organizationId,
          applicationId: app.id,
          userId,
          action: "app.updated",
          detail: { fields: changed },
        },
        tx,
      );
      return this.deps.core.presentApp(updated, member, tx);
    });
  }

  async rotateAppKey(userId: number, appId: number): Promise<ApplicationRecord> {
    const { app, member } = await this.deps.core.getAccessibleApp(userId, appId, "app:update");
    return this.deps.db.transaction(async (tx) => {
      const updated = await updateApplication(tx, app.organizationId, app.id, { appKey: generateAppKey() });
      if (!updated) throw AppError.notFound();
      await this.deps.appLogs.record(
        {
          organizationId: app.organizationId,
          applicationId: app.id,
          userId,
          action: "app.key_rotated",
          detail: {},
        },
        tx,
      );
      return this.deps.core.presentApp(updated, member, tx);
    });
  }

  private appChanges(input: UpdateAppInput) {
    const changes: Parameters<typeof updateApplication>[3] = {};
    if (input.title !== undefined) changes.title = input.title;
    if (input.description !== undefined) changes.description = input.description;
    if (input.environment !== undefined) changes.environment = input.environment;
    if (input.slack_channel !== undefined) changes.slackChannel = input.slack_channel;
    if (input.chat_format !== undefined) changes.chatFormat = input.chat_format;
    if (input.ready_to_sale !== undefined) changes.readyToSale = input.ready_to_sale;
    if (input.feedback_enabled !== undefined) changes.feedbackEnabled = input.feedback_enabled;
    if (input.autoupdate_enabled !== undefined) changes.autoUpdateEnabled = input.autoupdate_enabled;
    if (input.slack_webhook !== undefined) {
      changes.slackWebhookSealed = input.slack_webhook
        ? this.deps.slackWebhookBox.seal(input.slack_webhook)
        : null;
    }
    return changes;
  }
}

function snake(key: string): string {
  return key.replace(/[A-Z]/g, (char) => `_${char.toLowerCase()}`);
}
