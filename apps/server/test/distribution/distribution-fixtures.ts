import { fileSource, inspect } from "@tarmac/inspector";
import { eq } from "drizzle-orm";
import { createApp, createVersion, fixturePath } from "../helpers/app-factories.ts";
import { versions } from "../helpers/tables.ts";
import type { TestApp } from "../helpers/test-app.ts";

/** An iOS app with the ad-hoc fixture build, carrying the inspector's reading like an upload. */
export async function createIosBuild(
  t: TestApp,
  organizationId: number,
  options: { projectId?: number; readyToSale?: boolean; environment?: string } = {},
) {
  const app = await createApp(t, organizationId, {
    appType: 1,
    projectId: options.projectId,
    environment: options.environment,
    title: "Tarmac Ad Hoc",
  });
  const row = await createVersion(t, app, {
    fixture: "apple/ipa/adhoc.ipa",
    contentType: "application/octet-stream",
    readyToSale: options.readyToSale,
  });
  const source = await fileSource(fixturePath("apple/ipa/adhoc.ipa"));
  const info = await inspect(source, { fileName: "adhoc.ipa" }).finally(() => source.close?.());
  const { icon: _icon, ...buildInfo } = info as unknown as Record<string, unknown>;
  const [version] = await t.database.db
    .update(versions)
    .set({ bundleId: info.bundle_id, version: info.version ?? "2.3.1", buildInfo })
    .where(eq(versions.id, row.id))
    .returning();
  if (!version) throw new Error("version update failed");
  return { app, version, devices: (info.provisioning?.devices ?? []) as string[] };
}

/** The path and query of an absolute URL, for app.inject (no cookie is ever sent). */
export function localPath(url: string): string {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
}

/** Retries `assertion` until it passes: counts are written once a response has been sent. */
export async function eventually(assertion: () => Promise<void>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await assertion();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
