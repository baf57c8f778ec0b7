import type { Database } from "../../platform/db/client.ts";
import type { DomainEvents } from "../../platform/events/domain-events.ts";
import type { StorageDriver } from "../../platform/storage/storage-driver.ts";
import { type PublishSteps, publishToTestFlight } from "./apple-publisher.ts";
import { publishToGooglePlay } from "./google-publisher.ts";
import {
  findDeveloperAccountById,
  findStoreUpload,
  type StoreUploadRow,
  updateStoreUpload,
} from "./store.repo.ts";
import type { StoreClients } from "./store-clients.ts";
import { StoreError } from "./store-http.ts";
import { appleProgress, googleProgress, storeUploadOptions } from "./store-upload.facts.ts";

export interface StoreUploadWorkerDeps {
  db: Database;
  storage: StorageDriver;
  events: DomainEvents;
  clients: StoreClients;
  pollMs: number;
  maxPollMs: number;
  /** Google chunk size; the default outside tests. */
  chunkBytes?: number;
}

/**
 * Runs one store upload from where it stands. A failure the store may get over (the network,
 * a 5xx) is thrown again for the job to retry while it has tries left; the next run resumes
 * from the saved steps. Any other failure, or the last try's, ends the upload as failed with
 * the store's own message.
 */
export class StoreUploadWorker {
  constructor(private readonly deps: StoreUploadWorkerDeps) {}

  async run(taskId: string, attempt: { retryCount: number; retryLimit: number }): Promise<void> {
    const { db } = this.deps;
    const row = await findStoreUpload(db, taskId);
    if (!row || row.state === "done" || row.state === "failed") return;
    await updateStoreUpload(db, row.organizationId, row.id, { attempts: row.attempts + 1 });
    try {
      const message = await this.publish(row);
      await db.transaction(async (tx) => {
        await updateStoreUpload(tx, row.organizationId, row.id, { state: "done", progress: 100, message });
        await this.announce(row, "store_upload.finished", message, tx);
      });
    } catch (error) {
      const storeError = error instanceof StoreError ? error : null;
      const message = storeError?.message ?? `Unexpected failure: ${(error as Error).message}`;
      const triesLeft = attempt.retryCount < attempt.retryLimit;
      if ((storeError === null || storeError.retryable) && triesLeft) {
        await updateStoreUpload(db, row.organizationId, row.id, { message: `Will try again: ${message}` });
        throw error;
      }
      await db.transaction(async (tx) => {
        await updateStoreUpload(tx, row.organizationId, row.id, { state: "failed", message });
        await this.announce(row, "store_upload.failed", message, tx);
      });
    }
  }

  private async publish(row: StoreUploadRow): Promise<string> {
    const account = row.accountId ? await findDeveloperAccountById(this.deps.db, row.accountId) : null;
    if (!account || account.organizationId !== row.organizationId) {
      throw new StoreError("The developer account was deleted.", false);
    }
    const options = storeUploadOptions.parse(row.options);
    const save = async (
      progress: object,
      update: { state?: string; progress?: number; message?: string },
    ) => {
      await updateStoreUpload(this.deps.db, row.organizationId, row.id, { resume: progress, ...update });
    };
    const common = {
      storage: this.deps.storage,
      pollMs: this.deps.pollMs,
      maxPollMs: this.deps.maxPollMs,
      save,
    };
    if (row.store === "app_store") {
      const client = this.deps.clients.appleFor(account);
      return publishToTestFlight(
        client,
        options,
        appleProgress.parse(row.resume),
        common as PublishSteps<never>,
      );
    }
    const client = this.deps.clients.googleFor(account);
    return publishToGooglePlay(client, options, googleProgress.parse(row.resume), {
      ...(common as PublishSteps<never>),
      ...(this.deps.chunkBytes ? { chunkBytes: this.deps.chunkBytes } : {}),
    });
  }

  /** The domain event in the transaction that ends the upload: webhooks, chat and push listen to it. */
  private async announce(
    row: StoreUploadRow,
    type: "store_upload.finished" | "store_upload.failed",
    message: string,
    tx: Database,
  ): Promise<void> {
    const options = storeUploadOptions.parse(row.options);
    await this.deps.events.publish(
      {
        type,
        organizationId: row.organizationId,
        applicationId: row.applicationId,
        versionId: row.versionId,
        data: {
          message,
          store_upload: {
            task_id: row.id,
            store: row.store,
            track: options.track,
            version: options.version,
            build_number: options.buildNumber,
            started_by: row.createdBy,
          },
        },
      },
      { tx },
    );
  }
}
