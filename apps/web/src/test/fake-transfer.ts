// A stand-in for the tus transfer in tests: the test drives progress, a dropped connection, the
// finish and failures, then answers the preload that follows through FakeXhr.
import { vi } from "vitest";
import { resumableUploads, type TransferCallbacks, type TransferRequest } from "../api/resumable-upload.ts";

export class FakeTransfer {
  static all: FakeTransfer[] = [];
  terminated = false;

  constructor(
    readonly request: TransferRequest,
    private readonly callbacks: TransferCallbacks,
  ) {
    FakeTransfer.all.push(this);
  }

  static last(): FakeTransfer {
    const transfer = FakeTransfer.all.at(-1);
    if (!transfer) throw new Error("no transfer was started");
    return transfer;
  }

  /** Replaces the tus client for the current test (the setup file restores it after each test). */
  static install(): void {
    FakeTransfer.all = [];
    vi.spyOn(resumableUploads, "start").mockImplementation((request, callbacks) => {
      const transfer = new FakeTransfer(request, callbacks);
      return {
        terminate: () => {
          transfer.terminated = true;
        },
      };
    });
  }

  /** `percent` of a 100-byte upload is on the server. */
  progress(percent: number) {
    this.callbacks.onProgress(percent, 100);
  }
  /** A request failed; the client waits and tries again. */
  retry() {
    this.callbacks.onRetry();
  }
  finish(uploadId = "0123456789abcdef0123456789abcdef") {
    this.callbacks.onSuccess(uploadId);
  }
  fail(error: Error) {
    this.callbacks.onError(error);
  }
}
