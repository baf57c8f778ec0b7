import type { StoreKind, StoreUpload, StoreUploadInput, StoreUploadState } from "@tarmac/contracts";
import plist from "plist";
import { AppError } from "../../http/errors.ts";
import type { Database } from "../../platform/db/client.ts";
import type { JobDefinition } from "../../platform/jobs/define-job.ts";
import type { JobQueue } from "../../platform/jobs/job-queue.ts";
import type { ApplicationService } from "../application/application.service.ts";
import {
  findStoreUpload,
  insertStoreUpload,
  listDeveloperAccounts,
  listStoreUploads,
  type StoreUploadRow,
} from "./store.repo.ts";
import type { StoreCheckService } from "./store-checks.service.ts";
import type { StoreUploadOptions } from "./store-upload.facts.ts";

export interface StoreUploadServiceDeps {
  db: Database;
  jobs: JobQueue;
  applications: ApplicationService;
  checks: StoreCheckService;
  uploadJob: () => JobDefinition;
}

/**
 * What an optional `plist_file` may say, as fastlane's and Xcode's plists name it: the notes
 * (`WhatToTest` / `ReleaseNotes`) and, for TestFlight, beta group ids (`BetaGroups`). Form
 * fields win over it.
 */
function readPlistOptions(file: Buffer | undefined): { notes?: string; groups?: string[] } {
  if (!file) return {};
  let parsed: unknown;
  try {
    parsed = plist.parse(file.toString("utf8"));
  } catch {
    throw AppError.validation({ plist_file: ["The file is not an XML property list."] });
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw AppError.validation({ plist_file: ["The property list must be a dictionary."] });
  }
  const dict = parsed as Record<string, unknown>;
  const notes = dict.WhatToTest ?? dict.ReleaseNotes;
  const groups = dict.BetaGroups;
  if (notes !== undefined && typeof notes !== "string") {
    throw AppError.validation({ plist_file: ["WhatToTest must be a string."] });
  }
  if (groups !== undefined && (!Array.isArray(groups) || !groups.every((id) => typeof id === "string"))) {
    throw AppError.validation({ plist_file: ["BetaGroups must be an array of group ids."] });
  }
  return { ...(notes !== undefined ? { notes } : {}), ...(groups ? { groups: groups as string[] } : {}) };
}

export class StoreUploadService {
  constructor(private readonly deps: StoreUploadServiceDeps) {}

  /** Checks, then queues the upload; 400 naming each failed check before any byte is sent. */
  async start(
    userId: number,
    store: StoreKind,
    input: StoreUploadInput,
    plistFile?: Buffer,
  ): Promise<{ task_id: string }> {
    const fromPlist = readPlistOptions(plistFile);
    const integrationId = input.integration_id ?? (await this.onlyAccount(userId, store, input.app_id));
    const target = await this.deps.checks.resolve(userId, store, { ...input, integration_id: integrationId });
    const result = await this.deps.checks.run(target);
    if (!result.ok) {
      const failed = result.checks.filter((check) => !check.ok);
      throw AppError.badRequest(failed.map((check) => `${check.name}: ${check.detail}`).join(" "));
    }
    const { version, app, account } = target;
    const options: StoreUploadOptions = {
      fileKey: version.fileKey,
      fileName: version.fileName,
      fileSize: version.fileSize,
      sha256: version.sha256,
      bundleId: version.bundleId ?? "",
      version: version.version,
      buildNumber: version.buildNumber,
      releaseNotes: input.release_notes ?? fromPlist.notes ?? version.whatsNew,
      language: input.language,
      track: store === "google_play" ? input.track : null,
      rollout: store === "google_play" ? input.rollout : 100,
      groups: store === "app_store" ? (input.groups.length ? input.groups : (fromPlist.groups ?? [])) : [],
    };
    return this.deps.db.transaction(async (tx) => {
      const row = await insertStoreUpload(tx, {
        organizationId: app.organizationId,
        applicationId: app.id,
        versionId: version.id,
        accountId: account.id,
        store,
        options,
        createdBy: userId,
      });
      await this.deps.jobs.send(this.deps.uploadJob(), { taskId: row.id }, { tx });
      return { task_id: row.id };
    });
  }

  /** The organization's single account of the store, when the form named none. */
  private async onlyAccount(userId: number, store: StoreKind, appId: number): Promise<number> {
    const { app } = await this.deps.applications.getAccessibleApp(userId, appId, "app:read");
    const accounts = await listDeveloperAccounts(this.deps.db, app.organizationId, store);
    if (accounts.length !== 1) {
      throw AppError.validation({
        integration_id: [
          accounts.length ? "Choose the developer account." : "Add a developer account for this store first.",
        ],
      });
    }
    return (accounts[0] as { id: number }).id;
  }

  async status(userId: number, store: StoreKind, taskId: string): Promise<StoreUpload> {
    const row = await findStoreUpload(this.deps.db, taskId);
    if (!row || row.store !== store) throw AppError.notFound();
    const { app } = await this.deps.applications.getAccessibleApp(userId, row.applicationId, "app:read");
    if (app.organizationId !== row.organizationId) throw AppError.notFound();
    return presentUpload(row);
  }

  async history(userId: number, appId: number): Promise<StoreUpload[]> {
    const { app } = await this.deps.applications.getAccessibleApp(userId, appId, "app:read");
    return (await listStoreUploads(this.deps.db, app.organizationId, app.id)).map(presentUpload);
  }
}

export function presentUpload(row: StoreUploadRow): StoreUpload {
  const options = row.options as Partial<StoreUploadOptions>;
  return {
    task_id: row.id,
    store: row.store as StoreKind,
    app: row.applicationId,
    version: row.versionId,
    version_title: `${options.version ?? ""} (${options.buildNumber ?? ""})`,
    integration_id: row.accountId,
    state: row.state as StoreUploadState,
    progress: Math.round(row.progress * 10) / 10,
    message: row.message,
    track: options.track ?? null,
    attempts: row.attempts,
    created_by: row.createdBy,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
