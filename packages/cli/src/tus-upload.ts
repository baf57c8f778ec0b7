import { createReadStream } from "node:fs";
import path from "node:path";
import { type DetailedError, Upload } from "tus-js-client";
import { failureOf, networkFailure } from "./api.ts";
import type { Settings } from "./config.ts";
import type { CliError } from "./exit-codes.ts";
import type { Progress } from "./progress.ts";

/** Waits between attempts after a failed request: the line may come back, the server restart. */
const retryDelays = [500, 2000, 5000, 15000, 30000];
const defaultChunkBytes = 16 * 1024 * 1024;

function asCliError(settings: Settings, error: Error): CliError {
  const response = (error as DetailedError).originalResponse;
  if (response) return failureOf(response.getStatus(), response.getBody() ?? "");
  return networkFailure(settings.url, (error as DetailedError).causingError ?? error);
}

/**
 * Sends the file with tus in chunks; a dropped connection resumes where the server's kept parts
 * end. Answers the upload id that stands in for the file when finishing.
 */
export function tusUpload(
  settings: Settings,
  file: string,
  organizationId: number,
  progress: Progress,
  chunkBytes = defaultChunkBytes,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const upload = new Upload(createReadStream(file), {
      endpoint: `${settings.url}/api/uploads/`,
      headers: { Authorization: `Token ${settings.apiKey}` },
      metadata: { filename: path.basename(file), organization: String(organizationId) },
      chunkSize: chunkBytes,
      retryDelays,
      // A refused upload (4xx but 409/423/429) will not pass on a second try.
      onShouldRetry: (error) => {
        const status = error.originalResponse?.getStatus() ?? 0;
        return status === 0 || status >= 500 || status === 409 || status === 423 || status === 429;
      },
      onProgress: (sent, total) => progress.update(sent, total),
      onError: (error) => {
        progress.done();
        reject(asCliError(settings, error));
      },
      onSuccess: () => {
        progress.done();
        resolve((upload.url ?? "").split("/").filter(Boolean).pop() ?? "");
      },
    });
    upload.start();
  });
}
