import { randomBytes } from "node:crypto";
import { and, asc, eq, isNull } from "drizzle-orm";
import type { Database } from "../../platform/db/client.ts";
import { distributions } from "../../platform/db/schema/index.ts";

/** 32 url-safe characters (192 bits): the unguessable part of a public install URL. */
export function newInstallKey(): string {
  return randomBytes(24).toString("base64url");
}

/**
 * The key of the app's app-level install link (the getapp page that always offers the newest
 * build), created on first use. Callers hold the organization lock, so two sends never create
 * two links for one app.
 */
export async function findOrCreateAppInstallKey(
  db: Database,
  app: { id: number; organizationId: number },
  createdBy: number | null,
): Promise<string> {
  const [found] = await db
    .select({ key: distributions.key })
    .from(distributions)
    .where(and(eq(distributions.applicationId, app.id), isNull(distributions.versionId)))
    .orderBy(asc(distributions.id))
    .limit(1);
  if (found) return found.key;
  const [created] = await db
    .insert(distributions)
    .values({ organizationId: app.organizationId, applicationId: app.id, key: newInstallKey(), createdBy })
    .returning({ key: distributions.key });
  if (!created) throw new Error("install link insert failed");
  return created.key;
}

export function installUrl(publicUrl: string, key: string, versionId: number | null): string {
  const base = `${publicUrl}/getapp/${encodeURIComponent(key)}`;
  return versionId === null ? base : `${base}?v=${versionId}`;
}
