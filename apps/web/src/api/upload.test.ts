import { beforeEach, describe, expect, it, vi } from "vitest";
import { setTestCookie } from "../test/cookies.ts";
import { registerNavigator, setToken } from "./client.ts";
import { uploadWithProgress } from "./upload.ts";

/** A stand-in for XMLHttpRequest that lets the test drive progress and the reply. */
class FakeXhr {
  static last: FakeXhr | null = null;
  method = "";
  url = "";
  headers: Record<string, string> = {};
  sent: unknown = null;
  status = 0;
  responseText = "";
  upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;

  constructor() {
    FakeXhr.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name.toLowerCase()] = value;
  }
  send(body: unknown) {
    this.sent = body;
  }
  abort() {
    this.onabort?.();
  }
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded, total } as ProgressEvent);
  }
  reply(status: number, body: string) {
    this.status = status;
    this.responseText = body;
    this.onload?.();
  }
}

function lastXhr(): FakeXhr {
  if (!FakeXhr.last) throw new Error("no request was opened");
  return FakeXhr.last;
}

describe("uploadWithProgress", () => {
  const navigations: string[] = [];

  beforeEach(() => {
    navigations.length = 0;
    registerNavigator((path) => navigations.push(path));
    vi.stubGlobal("XMLHttpRequest", FakeXhr);
    vi.spyOn(console, "error").mockImplementation(() => {});
  });

  it("sends the form with token and XSRF headers, reports progress and resolves with status and body", async () => {
    setToken("tok");
    setTestCookie("XSRF-TOKEN", "xv");
    const form = new FormData();
    const progress: number[] = [];
    const handle = uploadWithProgress<{ task_id: string }>("/api/applicationadd/", form, {
      query: { preload: 1 },
      onProgress: (percent) => progress.push(percent),
    });
    const xhr = lastXhr();
    xhr.progress(25, 100);
    xhr.progress(2, 3);
    xhr.progress(100, 100);
    xhr.reply(202, '{"task_id":"t-1"}');
    await expect(handle.promise).resolves.toEqual({ status: 202, body: { task_id: "t-1" } });
    expect(progress).toEqual([25, 67, 100]);
    expect([xhr.method, xhr.url, xhr.sent]).toEqual(["POST", "/api/applicationadd/?preload=1", form]);
    expect(xhr.headers.authorization).toBe("Token tok");
    expect(xhr.headers["x-xsrf-token"]).toBe("xv");
    expect(xhr.headers["content-type"]).toBeUndefined();
  });

  it("rejects with an AbortError when aborted", async () => {
    const handle = uploadWithProgress("/api/applicationadd/", new FormData());
    handle.abort();
    await expect(handle.promise).rejects.toMatchObject({ name: "AbortError" });
  });

  it("applies the client's failure rules: 401 goes to /login, errors carry the server's body", async () => {
    const unauthorised = uploadWithProgress("/api/applicationadd/", new FormData());
    lastXhr().reply(401, '{"detail":"Authentication credentials were not provided."}');
    await expect(unauthorised.promise).rejects.toMatchObject({
      status: 401,
      message: "Authentication credentials were not provided.",
    });
    expect(navigations).toEqual(["/login"]);

    const invalid = uploadWithProgress("/api/applicationadd/", new FormData());
    lastXhr().reply(400, '{"error_code":2,"detail":""}');
    await expect(invalid.promise).rejects.toMatchObject({
      status: 400,
      message: "Server Error",
      body: { error_code: 2, detail: "" },
    });
  });
});
