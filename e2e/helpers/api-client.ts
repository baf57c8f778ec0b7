import { readFileSync } from "node:fs";
import path from "node:path";

export interface ApiReply {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: answers are read field by field in the tests
  body: any;
}

/** The server's API as a CI script or an admin calls it: with a token, JSON in and out. */
export function apiClient(baseUrl: () => string, token: () => string) {
  async function api(pathname: string, init: RequestInit = {}): Promise<ApiReply> {
    const response = await fetch(`${baseUrl()}${pathname}`, {
      ...init,
      headers: { Authorization: `Token ${token()}`, ...(init.headers ?? {}) },
    });
    return { status: response.status, body: await response.json().catch(() => null) };
  }
  const postJson = (pathname: string, body: unknown) =>
    api(pathname, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });

  /** Preloads a build file and confirms it as a new app; answers the confirm call. */
  async function uploadNewApp(organization: number, file: string, title: string): Promise<ApiReply> {
    const form = new FormData();
    form.set("organization", String(organization));
    form.set("file", new Blob([readFileSync(file)]), path.basename(file));
    const preload = await api("/api/applicationadd/?preload=1", { method: "POST", body: form });
    return postJson("/api/applications/", {
      organization,
      preload_path: preload.body.preload_path,
      project_title: title,
      title,
    });
  }

  /** The newest dev-outbox mail to `to` (instance admins only); mail goes out from a job, so it waits. */
  async function mailText(to: string): Promise<string> {
    for (let tries = 0; tries < 150; tries++) {
      const outbox = await api(`/api/admin/outbox/?to=${encodeURIComponent(to)}`);
      const text = outbox.body?.results?.[0]?.text;
      if (text) return text as string;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error(`no mail to ${to}`);
  }

  return { api, postJson, uploadNewApp, mailText };
}
