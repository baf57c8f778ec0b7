import { randomUUID } from "node:crypto";
import { createReadStream } from "node:fs";
import { eq, sql } from "drizzle-orm";
import { applications, distributions, organizations, projectMembers, projects, versions } from "./tables.ts";
import type { TestApp } from "./test-app.ts";

let sequence = 0;

export const fixturePath = (relative: string) =>
  new URL(`../../../../packages/inspector/fixtures/${relative}`, import.meta.url).pathname;

/** A project of the organization, counted in organizations.projects_count. */
export async function createProject(t: TestApp, organizationId: number, title?: string) {
  sequence += 1;
  const [project] = await t.database.db
    .insert(projects)
    .values({ organizationId, title: title ?? `Project ${sequence}` })
    .returning();
  if (!project) throw new Error("project insert failed");
  await t.database.db
    .update(organizations)
    .set({ projectsCount: sql`${organizations.projectsCount} + 1` })
    .where(eq(organizations.id, organizationId));
  return project;
}

/** An app; its project is created unless given. */
export async function createApp(
  t: TestApp,
  organizationId: number,
  options: {
    projectId?: number;
    projectTitle?: string;
    title?: string;
    bundleId?: string;
    appType?: number;
    environment?: string;
  } = {},
) {
  sequence += 1;
  const projectId = options.projectId ?? (await createProject(t, organizationId, options.projectTitle)).id;
  const [app] = await t.database.db
    .insert(applications)
    .values({
      organizationId,
      projectId,
      title: options.title ?? `App ${sequence}`,
      appType: options.appType ?? 0,
      environment: options.environment ?? "Production",
      bundleId: options.bundleId,
      appKey: randomUUID(),
    })
    .returning();
  if (!app) throw new Error("app insert failed");
  // Every app has its permanent install link from the start, as an upload makes it.
  await t.database.db.insert(distributions).values({
    organizationId,
    applicationId: app.id,
    key: randomUUID().replaceAll("-", ""),
    access: "public",
  });
  return app;
}

/**
 * A version whose file really exists in storage (a fixture build), counted in the app and the
 * organization like an upload would be; it becomes the app's current version unless told not to.
 */
export async function createVersion(
  t: TestApp,
  app: { id: number; organizationId: number },
  options: {
    fixture?: string;
    version?: string;
    buildNumber?: string;
    readyToSale?: boolean;
    state?: string;
    uploadedBy?: number;
    makeCurrent?: boolean;
    contentType?: string;
    fileName?: string;
    withIcon?: boolean;
  } = {},
) {
  sequence += 1;
  const fixture = options.fixture ?? "android/bare.apk";
  const fileKey = `orgs/${app.organizationId}/apps/${app.id}/${randomUUID()}.bin`;
  const stored = await t.platform.storage.put(fileKey, createReadStream(fixturePath(fixture)));
  let iconKey: string | null = null;
  if (options.withIcon) {
    iconKey = `orgs/${app.organizationId}/icons/${randomUUID()}.png`;
    await t.platform.storage.put(iconKey, createReadStream(fixturePath(fixture)));
  }
  const [row] = await t.database.db
    .insert(versions)
    .values({
      organizationId: app.organizationId,
      applicationId: app.id,
      version: options.version ?? `1.0.${sequence}`,
      buildNumber: options.buildNumber ?? String(sequence),
      state: options.state ?? "ready",
      fileKey,
      fileName: options.fileName ?? fixture.split("/").pop() ?? "build.bin",
      fileSize: stored.size,
      sha256: stored.sha256,
      contentType: options.contentType ?? "application/vnd.android.package-archive",
      iconKey,
      readyToSale: options.readyToSale ?? true,
      uploadedBy: options.uploadedBy ?? null,
    })
    .returning();
  if (!row) throw new Error("version insert failed");
  await t.database.db
    .update(applications)
    .set({
      versionsCount: sql`${applications.versionsCount} + 1`,
      updatedAt: new Date(),
      ...(options.makeCurrent === false ? {} : { currentVersionId: row.id }),
    })
    .where(eq(applications.id, app.id));
  await t.database.db
    .update(organizations)
    .set({
      spaceUsedBytes: sql`${organizations.spaceUsedBytes} + ${stored.size}`,
      buildsCount: sql`${organizations.buildsCount} + 1`,
    })
    .where(eq(organizations.id, app.organizationId));
  return row;
}

/** Makes the user a member of the project, for all environments unless `envs` is given. */
export async function addProjectMember(
  t: TestApp,
  projectId: number,
  userId: number,
  options: { role?: number; envs?: string[] } = {},
) {
  await t.database.db.insert(projectMembers).values({
    projectId,
    userId,
    role: options.role ?? 3,
    isAccessAllEnvs: options.envs === undefined,
    accessEnvs: options.envs ?? [],
  });
}
