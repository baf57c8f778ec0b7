import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { eq } from "drizzle-orm";
import { fixturePath } from "../helpers/app-factories.ts";
import { authHeader } from "../helpers/factories.ts";
import { organizations, plans } from "../helpers/tables.ts";
import type { TestApp } from "../helpers/test-app.ts";

export { fixturePath };

export interface FilePart {
  field?: string;
  name: string;
  content: Buffer;
}

/** A multipart body in the order given: text fields first, then the file (as browsers send it). */
export function multipart(
  fields: Record<string, string | number>,
  file?: FilePart,
  after: Record<string, string> = {},
) {
  const boundary = `----tarmac${randomBytes(8).toString("hex")}`;
  const chunks: Buffer[] = [];
  const field = (name: string, value: string | number) =>
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  for (const [name, value] of Object.entries(fields)) field(name, value);
  if (file) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? "file"}"; filename="${file.name}"\r\n` +
          "Content-Type: application/octet-stream\r\n\r\n",
      ),
      file.content,
      Buffer.from("\r\n"),
    );
  }
  for (const [name, value] of Object.entries(after)) field(name, value);
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
  };
}

export function fixture(relative: string, name?: string): FilePart {
  return { name: name ?? relative.split("/").pop() ?? "build", content: readFileSync(fixturePath(relative)) };
}

/** The disk image fixture under another name: its version is read from the name. */
export function dmg(version: string, field = "file"): FilePart {
  return {
    field,
    name: `Tarmac-${version}.dmg`,
    content: readFileSync(fixturePath("apple/dmg/Tarmac-1.2.3.dmg")),
  };
}

export async function preload(
  t: TestApp,
  token: string | null,
  fields: Record<string, string | number>,
  file?: FilePart,
) {
  const body = multipart(fields, file);
  return t.app.inject({
    method: "POST",
    url: "/api/applicationadd/?preload=1",
    payload: body.payload,
    headers: { ...body.headers, ...(token ? authHeader(token) : {}) },
  });
}

export async function confirm(t: TestApp, token: string, body: Record<string, unknown>, appId?: number) {
  return t.app.inject({
    method: "POST",
    url: appId ? `/api/applications/?app=${appId}` : "/api/applications/",
    payload: body,
    headers: authHeader(token),
  });
}

/** Preloads a fixture and confirms it as a new app; returns the app record. */
export async function uploadNewApp(
  t: TestApp,
  token: string,
  organization: number,
  file: FilePart,
  draft: Record<string, unknown> = {},
) {
  const loaded = await preload(t, token, { organization }, file);
  if (loaded.statusCode !== 200) throw new Error(`preload failed: ${loaded.statusCode} ${loaded.body}`);
  const created = await confirm(t, token, {
    organization,
    preload_path: loaded.json().preload_path,
    project_title: "Demo Project",
    title: "Demo",
    ...draft,
  });
  if (created.statusCode !== 201) throw new Error(`confirm failed: ${created.statusCode} ${created.body}`);
  return created.json() as { id: number; app_key: string; organization: number; [key: string]: unknown };
}

/** Preloads a fixture for an app and confirms it as a new version. */
export async function uploadVersion(
  t: TestApp,
  token: string,
  app: { id: number; organization: number },
  file: FilePart,
  draft: Record<string, unknown> = {},
) {
  const loaded = await preload(t, token, { organization: app.organization, app: app.id }, file);
  if (loaded.statusCode !== 200) return loaded;
  return confirm(
    t,
    token,
    { organization: app.organization, preload_path: loaded.json().preload_path, ...draft },
    app.id,
  );
}

let planSequence = 0;

/** A plan with the given limits (0 = unlimited) and the organization moved onto it. */
export async function setLimits(
  t: TestApp,
  organizationId: number,
  limits: { spaceLimitMb?: number; buildLimit?: number; projectsLimit?: number },
) {
  planSequence += 1;
  const [plan] = await t.database.db
    .insert(plans)
    .values({
      code: `test-${process.pid}-${planSequence}-${randomBytes(3).toString("hex")}`,
      title: "Test plan",
      spaceLimitMb: limits.spaceLimitMb ?? 0,
      buildLimit: limits.buildLimit ?? 0,
      projectsLimit: limits.projectsLimit ?? 0,
    })
    .returning();
  if (!plan) throw new Error("plan insert failed");
  await t.database.db
    .update(organizations)
    .set({ planId: plan.id })
    .where(eq(organizations.id, organizationId));
}

export async function usageOf(t: TestApp, organizationId: number) {
  const [row] = await t.database.db.select().from(organizations).where(eq(organizations.id, organizationId));
  if (!row) throw new Error("no organization");
  return {
    spaceUsedBytes: row.spaceUsedBytes,
    buildsCount: row.buildsCount,
    projectsCount: row.projectsCount,
  };
}

export async function setUsage(
  t: TestApp,
  organizationId: number,
  values: { spaceUsedBytes?: number; buildsCount?: number; projectsCount?: number },
) {
  await t.database.db.update(organizations).set(values).where(eq(organizations.id, organizationId));
}
