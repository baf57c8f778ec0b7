import type { PublishSteps } from "./apple-publisher.ts";
import { readSlice, withRetries } from "./file-slices.ts";
import type { GooglePlayClient } from "./google-play.ts";
import { chunkGranularity, ResumableMediaUpload } from "./google-resumable-upload.ts";
import { StoreError } from "./store-http.ts";
import type { GoogleProgress, StoreUploadOptions } from "./store-upload.facts.ts";

/** Chunks of 8 MiB: a multiple of Google's 256 KiB, and what one request holds in memory. */
export const googleChunkBytes = 32 * chunkGranularity;

const retryableStore = (error: unknown) => error instanceof StoreError && error.retryable;

interface UploadedBundle {
  versionCode?: number;
  sha256?: string;
}

/**
 * Google Play's edit: open it, upload the bundle through a resumable session, put it on the
 * track (staged when the rollout is below 100 %) with its release notes, commit.
 */
export async function publishToGooglePlay(
  client: GooglePlayClient,
  options: StoreUploadOptions,
  start: GoogleProgress,
  steps: PublishSteps<GoogleProgress> & { chunkBytes?: number },
): Promise<string> {
  const progress = { ...start };
  const packageName = options.bundleId;
  if (!progress.editId) {
    progress.editId = await client.insertEdit(packageName);
    await steps.save(progress, { state: "uploading", message: "Uploading" });
  }
  const editId = progress.editId;
  if (progress.versionCode === undefined) {
    const media = new ResumableMediaUpload<UploadedBundle>(client.http, () => client.accessToken());
    if (!progress.session) {
      progress.session = await media.open(
        client.bundleUploadUrl(packageName, editId),
        options.fileSize,
        "application/octet-stream",
      );
      await steps.save(progress, {});
    }
    const bundle = await sendChunks(media, progress.session, options, steps, progress);
    if (bundle.sha256 && bundle.sha256.toLowerCase() !== options.sha256.toLowerCase()) {
      throw new StoreError(
        `Google Play received a different file (SHA-256 ${bundle.sha256}, sent ${options.sha256}).`,
        false,
      );
    }
    if (!bundle.versionCode)
      throw new StoreError("Google Play took the bundle but named no version code.", false);
    progress.versionCode = bundle.versionCode;
    await steps.save(progress, { state: "processing", progress: 100, message: "Releasing" });
  }
  const track = options.track ?? "internal";
  if (!progress.trackSet) {
    await client.updateTrack(packageName, editId, {
      track,
      versionCode: progress.versionCode,
      rollout: options.rollout,
      language: options.language,
      notes: options.releaseNotes,
    });
    progress.trackSet = true;
    await steps.save(progress, {});
  }
  await client.commitEdit(packageName, editId);
  const staged = options.rollout < 100 ? ` to ${options.rollout} % of users` : "";
  return `Version code ${progress.versionCode} is released on the ${track} track${staged}.`;
}

async function sendChunks(
  media: ResumableMediaUpload<UploadedBundle>,
  session: string,
  options: StoreUploadOptions,
  steps: PublishSteps<GoogleProgress> & { chunkBytes?: number },
  progress: GoogleProgress,
): Promise<UploadedBundle> {
  const size = options.fileSize;
  const chunkBytes = steps.chunkBytes ?? googleChunkBytes;
  // A session opened in an earlier run may hold bytes already: ask it where to go on from.
  let state = await withRetries(3, 1000, retryableStore, () => media.query(session, size));
  while (!state.done) {
    const offset = state.offset;
    const length = Math.min(chunkBytes, size - offset);
    const bytes = await readSlice(steps.storage, options.fileKey, offset, length);
    state = await withRetries(3, 1000, retryableStore, async () => {
      try {
        return await media.send(session, bytes, offset, size);
      } catch (error) {
        // After a failed chunk the session says how much of it arrived; go on from there.
        if (retryableStore(error)) {
          const where = await media.query(session, size);
          if (where.done || where.offset !== offset) return where;
        }
        throw error;
      }
    });
    if (!state.done) {
      await steps.save(progress, {
        state: "uploading",
        progress: Math.min(99.9, (state.offset / size) * 100),
      });
    }
  }
  return state.result;
}
