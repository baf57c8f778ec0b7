import { waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setTestCookie } from "../test/cookies.ts";
import { ApiError, registerNavigator, setToken } from "./client.ts";
import {
  CHUNK_BYTES,
  startTusTransfer,
  type Transfer,
  type TransferCallbacks,
  uploadIdOf,
} from "./resumable-upload.ts";

/** A tus server in an XMLHttpRequest stand-in: `answer` decides each request's reply. */
class TusXhr {
  static sent: TusXhr[] = [];
  static answer: (xhr: TusXhr) => void = () => {};
  method = "";
  url = "";
  headers: Record<string, string> = {};
  body: Blob | null = null;
  status = 0;
  responseText = "";
  responseHeaders: Record<string, string> = {};
  upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name.toLowerCase()] = value;
  }
  getResponseHeader(name: string) {
    return this.responseHeaders[name.toLowerCase()] ?? null;
  }
  send(body: Blob | null = null) {
    this.body = body;
    TusXhr.sent.push(this);
    setTimeout(() => TusXhr.answer(this), 0);
  }
  abort() {}
  reply(status: number, headers: Record<string, string> = {}, body = "") {
    this.status = status;
    this.responseHeaders = { "tus-resumable": "1.0.0", ...headers };
    this.responseText = body;
    this.onload?.();
  }
  drop() {
    this.onerror?.(new Event("error"));
  }
}

const ID = "0123456789abcdef0123456789abcdef";
const started: Transfer[] = [];

/** Starts a transfer that the test's end stops, so no listener of it outlives the test. */
function start(...args: Parameters<typeof startTusTransfer>): Transfer {
  const transfer = startTusTransfer(...args);
  started.push(transfer);
  return transfer;
}
const requests = () => TusXhr.sent.map((xhr) => `${xhr.method} ${new URL(xhr.url).pathname}`);

function callbacks() {
  return {
    onProgress: vi.fn<TransferCallbacks["onProgress"]>(),
    onRetry: vi.fn<TransferCallbacks["onRetry"]>(),
    onSuccess: vi.fn<TransferCallbacks["onSuccess"]>(),
    onError: vi.fn<TransferCallbacks["onError"]>(),
  };
}

/** Answers like the server: creation, then PATCHes that take the whole body. */
function serveTus(length: number, options: { dropFirstPatch?: boolean } = {}) {
  let offset = 0;
  let dropped = false;
  TusXhr.answer = (xhr) => {
    if (xhr.method === "POST") return xhr.reply(201, { location: `/api/uploads/${ID}/` });
    if (xhr.method === "HEAD")
      return xhr.reply(200, { "upload-offset": String(offset), "upload-length": String(length) });
    if (xhr.method === "DELETE") return xhr.reply(204);
    if (options.dropFirstPatch && !dropped) {
      dropped = true;
      // The server kept what it had whole before the cut: half of the first chunk.
      offset = (xhr.body?.size ?? 0) / 2;
      return xhr.drop();
    }
    offset += xhr.body?.size ?? 0;
    xhr.reply(204, { "upload-offset": String(offset) });
  };
}

describe("startTusTransfer", () => {
  beforeEach(() => {
    TusXhr.sent = [];
    localStorage.clear();
    registerNavigator(() => {});
    vi.stubGlobal("XMLHttpRequest", TusXhr);
    vi.spyOn(console, "error").mockImplementation(() => {});
    vi.spyOn(console, "debug").mockImplementation(() => {});
    setToken("tok");
    setTestCookie("XSRF-TOKEN", "xv");
  });
  afterEach(() => {
    TusXhr.answer = () => {};
    for (const transfer of started.splice(0)) transfer.terminate();
  });

  it("creates the upload, sends it in chunks signed like every API call, and names its id", async () => {
    const size = CHUNK_BYTES + 1000;
    serveTus(size);
    const file = new File([new Uint8Array(size)], "rocket.apk");
    const events = callbacks();
    start({ file, organization: 7 }, events);
    await waitFor(() => expect(events.onSuccess).toHaveBeenCalledWith(ID));
    expect(requests()).toEqual([
      "POST /api/uploads/",
      `PATCH /api/uploads/${ID}/`,
      `PATCH /api/uploads/${ID}/`,
    ]);
    const [create, first, second] = TusXhr.sent;
    expect(create?.headers["upload-length"]).toBe(String(size));
    expect(create?.headers["upload-metadata"]).toBe(
      `filename ${btoa("rocket.apk")},organization ${btoa("7")}`,
    );
    for (const xhr of TusXhr.sent) {
      expect(xhr.headers.authorization).toBe("Token tok");
      expect(xhr.headers["x-xsrf-token"]).toBe("xv");
      expect(xhr.headers["tus-resumable"]).toBe("1.0.0");
    }
    expect([first?.headers["upload-offset"], first?.body?.size]).toEqual(["0", CHUNK_BYTES]);
    expect([second?.headers["upload-offset"], second?.body?.size]).toEqual([String(CHUNK_BYTES), 1000]);
    expect(events.onRetry).not.toHaveBeenCalled();
    expect(events.onError).not.toHaveBeenCalled();
  });

  it("after a dropped connection asks how far it got and resumes from there", async () => {
    serveTus(1000, { dropFirstPatch: true });
    const events = callbacks();
    start({ file: new File([new Uint8Array(1000)], "rocket.apk"), organization: 7 }, events);
    await waitFor(() => expect(events.onSuccess).toHaveBeenCalledWith(ID));
    expect(events.onRetry).toHaveBeenCalledTimes(1);
    expect(requests()).toEqual([
      "POST /api/uploads/",
      `PATCH /api/uploads/${ID}/`,
      `HEAD /api/uploads/${ID}/`,
      `PATCH /api/uploads/${ID}/`,
    ]);
    expect(TusXhr.sent[3]?.headers["upload-offset"]).toBe("500");
    expect(TusXhr.sent[3]?.body?.size).toBe(500);
  });

  it("resumes the same file for the same organization after a reload, from the stored upload URL", async () => {
    TusXhr.answer = (xhr) => {
      if (xhr.method === "POST") return xhr.reply(201, { location: `/api/uploads/${ID}/` });
      // The first page is gone before its bytes arrive.
    };
    const file = new File([new Uint8Array(1000)], "rocket.apk", { lastModified: 5 });
    const gone = start({ file, organization: 7 }, callbacks());
    await waitFor(() => expect(requests()).toContain(`PATCH /api/uploads/${ID}/`));
    void gone;
    TusXhr.sent = [];
    serveTus(1000);
    const events = callbacks();
    start({ file, organization: 7 }, events);
    await waitFor(() => expect(events.onSuccess).toHaveBeenCalledWith(ID));
    expect(requests()).toEqual([`HEAD /api/uploads/${ID}/`, `PATCH /api/uploads/${ID}/`]);
  });

  it("says so at once when the browser goes offline, and starts again when it is back online", async () => {
    let hang = true;
    serveTus(1000);
    const serve = TusXhr.answer;
    TusXhr.answer = (xhr) => {
      // The first PATCH hangs, as a request on a network that went away may.
      if (xhr.method === "PATCH" && hang) {
        hang = false;
        return;
      }
      serve(xhr);
    };
    const events = callbacks();
    start({ file: new File([new Uint8Array(1000)], "rocket.apk"), organization: 7 }, events);
    await waitFor(() => expect(requests()).toContain(`PATCH /api/uploads/${ID}/`));
    window.dispatchEvent(new Event("offline"));
    expect(events.onRetry).toHaveBeenCalledTimes(1);
    window.dispatchEvent(new Event("online"));
    await waitFor(() => expect(events.onSuccess).toHaveBeenCalledWith(ID));
    expect(requests()).toEqual([
      "POST /api/uploads/",
      `PATCH /api/uploads/${ID}/`,
      `HEAD /api/uploads/${ID}/`,
      `PATCH /api/uploads/${ID}/`,
    ]);
  });

  it("answers a refusal as the server's ApiError without retrying it", async () => {
    TusXhr.answer = (xhr) =>
      xhr.reply(400, {}, JSON.stringify({ error_code: 6, detail: "Storage is full." }));
    const events = callbacks();
    start({ file: new File(["apk"], "rocket.apk"), organization: 7 }, events);
    await waitFor(() => expect(events.onError).toHaveBeenCalled());
    const error = events.onError.mock.calls[0]?.[0];
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).body).toEqual({ error_code: 6, detail: "Storage is full." });
    expect(events.onRetry).not.toHaveBeenCalled();
    expect(requests()).toEqual(["POST /api/uploads/"]);
  });

  it("terminates: gives the upload up on the server with the XSRF header", async () => {
    TusXhr.answer = (xhr) => {
      if (xhr.method === "POST") return xhr.reply(201, { location: `/api/uploads/${ID}/` });
      if (xhr.method === "DELETE") return xhr.reply(204);
    };
    const events = callbacks();
    const transfer = startTusTransfer(
      { file: new File([new Uint8Array(10)], "rocket.apk"), organization: 7 },
      events,
    );
    await waitFor(() => expect(requests()).toContain(`PATCH /api/uploads/${ID}/`));
    transfer.terminate();
    await waitFor(() => expect(requests()).toContain(`DELETE /api/uploads/${ID}/`));
    expect(TusXhr.sent.at(-1)?.headers["x-xsrf-token"]).toBe("xv");
    expect(events.onError).not.toHaveBeenCalled();
  });

  it("reads the id from an upload URL", () => {
    expect(uploadIdOf(`http://localhost:3000/api/uploads/${ID}/`)).toBe(ID);
  });
});
