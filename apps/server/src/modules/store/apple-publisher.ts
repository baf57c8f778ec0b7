import { createHash } from "node:crypto";
import type { StorageDriver } from "../../platform/storage/storage-driver.ts";
import type { AppStoreConnectClient, UploadOperation } from "./app-store-connect.ts";
import { digestOf, readSlice, withRetries } from "./file-slices.ts";
import { StoreError } from "./store-http.ts";
import type { AppleProgress, StoreUploadOptions } from "./store-upload.facts.ts";

export interface PublishSteps<P> {
  /** Saves where the upload stands (and the share of bytes sent), so a retry goes on from there. */
  save(
    progress: P,
    update: { state?: "uploading" | "processing"; progress?: number; message?: string },
  ): Promise<void>;
  storage: StorageDriver;
  /** Pause between two looks at the store's processing. */
  pollMs: number;
  /** How long processing is waited for in one run before the job tries again later. */
  maxPollMs: number;
}

const retryableStore = (error: unknown) => error instanceof StoreError && error.retryable;

/**
 * App Store Connect's build upload: reserve the upload and its file, PUT each slice the store
 * names, finish with the file's MD5, wait for processing, then What to Test and beta groups.
 */
export async function publishToTestFlight(
  client: AppStoreConnectClient,
  options: StoreUploadOptions,
  start: AppleProgress,
  steps: PublishSteps<AppleProgress>,
): Promise<string> {
  const progress = { ...start };
  if (!progress.appId) {
    const app = await client.findApp(options.bundleId);
    if (!app)
      throw new StoreError(`App Store Connect has no app with the bundle ID ${options.bundleId}.`, false);
    progress.appId = app.id;
    await steps.save(progress, { state: "uploading", message: "Reserving the upload" });
  }
  const appId = progress.appId;
  if (!progress.buildUploadId) {
    progress.buildUploadId = await client.createBuildUpload(appId, options.version, options.buildNumber);
    await steps.save(progress, {});
  }
  if (!progress.fileId || !progress.operations) {
    const file = await client.createBuildUploadFile(
      progress.buildUploadId,
      options.fileName,
      options.fileSize,
    );
    progress.fileId = file.id;
    progress.operations = [...file.operations].sort((a, b) => a.offset - b.offset);
    checkOperationsCover(progress.operations, options.fileSize);
    await steps.save(progress, {});
  }
  if (!progress.uploaded) {
    const md5 = await sendSlices(client, options, progress, steps);
    await client.markUploaded(progress.fileId, md5);
    progress.uploaded = true;
    await steps.save(progress, {
      state: "processing",
      progress: 100,
      message: "Apple is processing the build",
    });
  }
  await waitForProcessing(client, progress.buildUploadId, steps);
  if (!progress.buildId) {
    const buildId = await client.findBuild(appId, options.buildNumber);
    if (!buildId) throw new StoreError("The processed build is not listed yet.", true);
    progress.buildId = buildId;
    await steps.save(progress, {});
  }
  if (!progress.notesSet && options.releaseNotes.trim()) {
    await client.setWhatToTest(progress.buildId, options.releaseNotes.trim().slice(0, 4000));
    progress.notesSet = true;
    await steps.save(progress, {});
  }
  if (!progress.groupsSet && options.groups.length > 0) {
    await client.addToBetaGroups(progress.buildId, options.groups);
    progress.groupsSet = true;
    await steps.save(progress, {});
  }
  const groups = options.groups.length ? `, added to ${options.groups.length} beta group(s)` : "";
  return `Build ${options.version} (${options.buildNumber}) is in TestFlight${groups}.`;
}

/** The store's slices must tile the file exactly; anything else would send a corrupt build. */
function checkOperationsCover(operations: UploadOperation[], size: number): void {
  let next = 0;
  for (const operation of operations) {
    if (operation.offset !== next || operation.length <= 0) {
      throw new StoreError(
        `App Store Connect's upload slices do not cover the file (gap at byte ${next}).`,
        false,
      );
    }
    next += operation.length;
  }
  if (next !== size)
    throw new StoreError(`App Store Connect's upload slices cover ${next} of ${size} bytes.`, false);
}

/** PUTs the slices not yet sent, one at a time; returns the file's MD5. */
async function sendSlices(
  client: AppStoreConnectClient,
  options: StoreUploadOptions,
  progress: AppleProgress,
  steps: PublishSteps<AppleProgress>,
): Promise<string> {
  const operations = progress.operations ?? [];
  const sent = new Set(progress.sent);
  // From the start, the digest follows the slices; a resumed upload reads the file once more for it.
  const hash = sent.size === 0 ? createHash("md5") : null;
  let bytesSent = operations
    .filter((operation) => sent.has(operation.offset))
    .reduce((sum, op) => sum + op.length, 0);
  for (const operation of operations) {
    if (sent.has(operation.offset)) continue;
    const bytes = await readSlice(steps.storage, options.fileKey, operation.offset, operation.length);
    hash?.update(bytes);
    await withRetries(3, 1000, retryableStore, () => client.putSlice(operation, bytes));
    sent.add(operation.offset);
    progress.sent = [...sent];
    bytesSent += operation.length;
    await steps.save(progress, {
      state: "uploading",
      progress: Math.min(99.9, (bytesSent / options.fileSize) * 100),
      message: "Uploading",
    });
  }
  return hash ? hash.digest("hex") : digestOf(steps.storage, options.fileKey, "md5");
}

async function waitForProcessing(
  client: AppStoreConnectClient,
  buildUploadId: string,
  steps: PublishSteps<AppleProgress>,
): Promise<void> {
  const deadline = Date.now() + steps.maxPollMs;
  for (;;) {
    const state = await client.getBuildUploadState(buildUploadId);
    if (state.state === "COMPLETE") return;
    if (state.state === "FAILED") {
      throw new StoreError(
        state.errors.join("; ") || "App Store Connect could not process the build.",
        false,
      );
    }
    if (Date.now() >= deadline) throw new StoreError("Apple is still processing the build.", true);
    await new Promise((resolve) => setTimeout(resolve, steps.pollMs));
  }
}
