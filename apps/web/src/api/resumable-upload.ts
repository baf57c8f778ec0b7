// A build's bytes go to the server with tus 1.0.0 at /api/uploads/ (see the user guide's "Resumable
// uploads"): in chunks, retried after a dropped connection or a sleeping laptop, and resumed after
// a page reload from the upload URL tus-js-client keeps in localStorage for the same file.
import { type DetailedError, type HttpRequest, Upload } from "tus-js-client";
import { ApiError, buildHeaders, createFailure, parseBodyText, SERVER_ERROR_MESSAGE } from "./client.ts";

export const RESUMABLE_ENDPOINT = "/api/uploads/";
/** The server's default UPLOAD_RESUMABLE_PART_BYTES: one chunk is one stored part. */
export const CHUNK_BYTES = 16 * 1024 * 1024;
/**
 * Waits between attempts after a failed request. The count starts again once bytes get through,
 * so these only add up while the connection stays down: about 20 minutes.
 */
export const RETRY_DELAYS_MS = [
  0,
  1000,
  3000,
  5000,
  10_000,
  10_000,
  20_000,
  30_000,
  30_000,
  ...Array<number>(18).fill(60_000),
];

/** The connection stayed down through every retry. */
export class ConnectionLostError extends Error {
  constructor() {
    super("The connection was lost and the upload could not resume.");
    this.name = "ConnectionLostError";
  }
}

export interface TransferCallbacks {
  onProgress: (sent: number, total: number) => void;
  /** A request failed and the upload will try again by itself. */
  onRetry: () => void;
  /** Every byte is on the server: `uploadId` finishes it in a preload. */
  onSuccess: (uploadId: string) => void;
  /** Not retried (any more): an ApiError with the server's answer, or a ConnectionLostError. */
  onError: (error: Error) => void;
}

export interface Transfer {
  /** Stops sending and gives the upload up on the server (tus termination). */
  terminate: () => void;
}

export interface TransferRequest {
  file: File;
  organization: number;
}

/** What the web app needs of a tus client; tests put a fake in `resumableUploads.start`. */
export type StartTransfer = (request: TransferRequest, callbacks: TransferCallbacks) => Transfer;

/** The upload's id: the last segment of its URL (/api/uploads/{id}/). */
export function uploadIdOf(url: string): string {
  return new URL(url, window.location.origin).pathname.split("/").filter(Boolean).pop() ?? "";
}

/** Our own requests carry the token and, for the cookie, the XSRF header, as every API call does. */
function signRequest(request: HttpRequest): void {
  const url = new URL(request.getURL(), window.location.origin);
  const own = url.origin === window.location.origin ? `${url.pathname}${url.search}` : url.href;
  buildHeaders(request.getMethod(), own, undefined).forEach((value, name) => {
    request.setHeader(name, value);
  });
}

function statusOf(error: DetailedError): number {
  return error.originalResponse?.getStatus() ?? 0;
}

/** Offline, a server error or an offset to check again: worth another try; a refusal is not. */
function worthRetrying(error: DetailedError): boolean {
  const status = statusOf(error);
  return status === 0 || status >= 500 || status === 409 || status === 423;
}

/** The server's answer fails as every API call does; no answer at all is a lost connection. */
function failureOf(error: Error): Error {
  const response = (error as Partial<DetailedError>).originalResponse;
  if (response) return createFailure(response.getStatus(), parseBodyText(response.getBody()));
  console.error(error);
  return "originalRequest" in error ? new ConnectionLostError() : new ApiError(0, null, SERVER_ERROR_MESSAGE);
}

export const startTusTransfer: StartTransfer = ({ file, organization }, callbacks) => {
  let stopped = false;
  let started = false;
  // A request hanging on a network that went away (a closed lid, another Wi-Fi) may never fail:
  // offline says so at once, and online starts again from the offset the server has.
  const offline = () => callbacks.onRetry();
  const online = () => {
    if (!started || stopped) return;
    void upload.abort().then(() => {
      if (!stopped) upload.start();
    });
  };
  const stop = () => {
    stopped = true;
    window.removeEventListener("offline", offline);
    window.removeEventListener("online", online);
  };
  const upload = new Upload(file, {
    endpoint: new URL(RESUMABLE_ENDPOINT, window.location.origin).href,
    chunkSize: CHUNK_BYTES,
    retryDelays: RETRY_DELAYS_MS,
    metadata: { filename: file.name, organization: String(organization) },
    // One person's file for one organization: another organization is another upload.
    fingerprint: async (source) => {
      const { name, size, lastModified } = source as File;
      return ["tarmac", window.location.origin, organization, name, size, lastModified].join("-");
    },
    removeFingerprintOnSuccess: true,
    onBeforeRequest: signRequest,
    onShouldRetry: (error) => {
      const retry = worthRetrying(error);
      if (retry) callbacks.onRetry();
      return retry;
    },
    onProgress: (sent, total) => callbacks.onProgress(sent, total),
    onSuccess: () => {
      stop();
      callbacks.onSuccess(uploadIdOf(upload.url ?? ""));
    },
    onError: (error) => {
      if (stopped) return;
      stop();
      callbacks.onError(failureOf(error));
    },
  });
  window.addEventListener("offline", offline);
  window.addEventListener("online", online);
  void upload.findPreviousUploads().then(
    (previous) => {
      if (stopped) return;
      const latest = previous.sort((a, b) => b.creationTime.localeCompare(a.creationTime))[0];
      if (latest) upload.resumeFromPreviousUpload(latest);
      started = true;
      upload.start();
    },
    () => {
      if (stopped) return;
      started = true;
      upload.start();
    },
  );
  return {
    terminate: () => {
      stop();
      // Gone already (finished and read, or expired) is as good as given up.
      upload.abort(true).catch(() => {});
    },
  };
};

/** The transfer every upload uses; a test replaces `start`. */
export const resumableUploads: { start: StartTransfer } = { start: startTusTransfer };
