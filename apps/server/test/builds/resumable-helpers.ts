import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { authHeader } from "../helpers/factories.ts";
import { versions } from "../helpers/tables.ts";
import type { TestApp } from "../helpers/test-app.ts";
import { waitFor } from "../helpers/wait-for.ts";
import { confirm, type dmg, fixturePath, multipart } from "./upload-helpers.ts";

/** Small parts, so the disk image spans several of them. */
export const partBytes = 64 * 1024;
export const image = readFileSync(fixturePath("apple/dmg/Tarmac-1.2.3.dmg"));
export const tus = { "tus-resumable": "1.0.0" };
const tusBytes = { ...tus, "content-type": "application/offset+octet-stream" };

export const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

export function tusMetadata(values: Record<string, string | number>): string {
  return Object.entries(values)
    .map(([key, value]) => `${key} ${Buffer.from(String(value)).toString("base64")}`)
    .join(",");
}

export function createUpload(
  app: TestApp,
  token: string,
  metadata: Record<string, string | number>,
  options: { length?: number; body?: Buffer } = {},
) {
  return app.app.inject({
    method: "POST",
    url: "/api/uploads/",
    headers: {
      ...(options.body ? tusBytes : tus),
      ...authHeader(token),
      "upload-length": String(options.length ?? image.length),
      "upload-metadata": tusMetadata(metadata),
    },
    ...(options.body ? { payload: options.body } : {}),
  });
}

function patchOf(app: TestApp, token: string, url: string, offset: number, payload: Buffer | Readable) {
  return app.app.inject({
    method: "PATCH",
    url,
    headers: { ...tusBytes, ...authHeader(token), "upload-offset": String(offset) },
    payload,
  });
}

function headOf(app: TestApp, token: string, url: string) {
  return app.app.inject({ method: "HEAD", url, headers: { ...tus, ...authHeader(token) } });
}

/**
 * HEAD once the upload reached `offset`. A request cut off may still be storing its last whole
 * part when the client has already gone, so the offset can move a moment after the cut (a
 * client resuming earlier gets 409 and asks again).
 */
export function settledAt(app: TestApp, token: string, url: string, offset: number) {
  return waitFor(async () => {
    const status = await headOf(app, token, url);
    return status.headers["upload-offset"] === String(offset) ? status : undefined;
  }, 5000);
}

/** A request body that delivers `bytes` and then breaks off, as a dropped connection does. */
function cutAfter(bytes: Buffer): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= bytes.length) {
        this.destroy(new Error("connection reset"));
        return;
      }
      const chunk = bytes.subarray(sent, sent + 16 * 1024);
      sent += chunk.length;
      this.push(chunk);
    },
  });
}

export const idOf = (url: string) => url.split("/").filter(Boolean).pop() as string;

export function finishByPreload(app: TestApp, token: string, fields: Record<string, string | number>) {
  const body = multipart(fields);
  return app.app.inject({
    method: "POST",
    url: "/api/applicationadd/?preload=1",
    payload: body.payload,
    headers: { ...body.headers, ...authHeader(token) },
  });
}

/** The SHA-256 of what the version's download link delivers. */
export async function downloadedSha(app: TestApp, token: string, appId: number): Promise<string> {
  const [version] = await app.database.db.select().from(versions).where(eq(versions.applicationId, appId));
  if (!version) throw new Error("no version");
  const redirect = await app.app.inject({
    url: `/api/versions/${version.id}/download/`,
    headers: authHeader(token),
  });
  const link = new URL(redirect.headers.location as string);
  const file = await app.app.inject({ url: `${link.pathname}${link.search}` });
  expect(file.statusCode).toBe(200);
  return sha256(file.rawPayload);
}

/** Preloads with `upload_id`, confirms as a new app, and answers the app's id. */
export async function finishAsNewApp(app: TestApp, token: string, organization: number, uploadUrl: string) {
  const loaded = await finishByPreload(app, token, { organization, upload_id: idOf(uploadUrl) });
  expect(loaded.statusCode, loaded.body).toBe(200);
  const created = await confirm(app, token, {
    organization,
    preload_path: loaded.json().preload_path,
    project_title: "Resumable",
    title: "Resumable",
  });
  expect(created.statusCode, created.body).toBe(201);
  return created.json().id as number;
}

/** The calls a test file makes against its own app (`current`), or another one passed last. */
export function resumableClient(current: () => TestApp) {
  /** Creates an upload of the disk image and answers its URL. */
  async function started(token: string, organization: number, version = "1.2.3", app = current()) {
    const created = await createUpload(app, token, { filename: `Tarmac-${version}.dmg`, organization });
    expect(created.statusCode, created.body).toBe(201);
    return created.headers.location as string;
  }
  const patch = (token: string, url: string, offset: number, payload: Buffer | Readable, app = current()) =>
    patchOf(app, token, url, offset, payload);
  const head = (token: string, url: string, app = current()) => headOf(app, token, url);
  /** A PATCH whose connection drops after `bytes`: the client hears nothing back. */
  async function cutPatch(token: string, url: string, offset: number, bytes: Buffer, app = current()) {
    await expect(patchOf(app, token, url, offset, cutAfter(bytes))).rejects.toThrow("connection reset");
  }
  function ciUpload(
    appKey: string,
    apiKey: string,
    fields: Record<string, string>,
    file?: ReturnType<typeof dmg>,
  ) {
    const body = multipart({}, file, fields);
    return current().app.inject({
      method: "PUT",
      url: `/api/app_upload/${appKey}/${apiKey}/`,
      payload: body.payload,
      headers: body.headers,
    });
  }
  /** Files left under the organization's resumable uploads. */
  function storedParts(organizationId: number): string[] {
    const root = path.join(current().config.STORAGE_LOCAL_DIR, "orgs", String(organizationId), "uploads");
    try {
      return readdirSync(root, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => entry.name);
    } catch {
      return [];
    }
  }
  async function appKeyOf(token: string, appId: number): Promise<{ appKey: string }> {
    const record = await current().app.inject({
      url: `/api/applications/${appId}/`,
      headers: authHeader(token),
    });
    return { appKey: record.json().app_key as string };
  }
  return { started, patch, head, cutPatch, ciUpload, storedParts, appKeyOf };
}
