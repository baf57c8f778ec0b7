import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { Database } from "../../platform/db/client.ts";
import { versions } from "./application.tables.ts";

/** One stored file of a build: the build itself, its icon, or the universal APK made from an AAB. */
export interface VersionFile {
  versionId: number;
  role: "file" | "icon" | "apk";
  key: string;
  size: number;
  /** Known for the build file (computed when it was uploaded). */
  sha256: string | null;
}

const keyProperties = { file: "fileKey", icon: "iconKey", apk: "universalApkKey" } as const;

/**
 * The files an organization's builds point at, for moving them between storages. Reads pages by
 * version id, so a move of a large catalog never holds it in memory.
 */
export class VersionFiles {
  constructor(private readonly deps: { db: Database }) {}

  async page(organizationId: number, afterVersionId: number, limit: number): Promise<VersionFile[]> {
    const rows = await this.deps.db
      .select({
        id: versions.id,
        fileKey: versions.fileKey,
        fileSize: versions.fileSize,
        sha256: versions.sha256,
        iconKey: versions.iconKey,
        apkKey: versions.universalApkKey,
        apkSize: versions.universalApkSize,
      })
      .from(versions)
      .where(and(eq(versions.organizationId, organizationId), gt(versions.id, afterVersionId)))
      .orderBy(asc(versions.id))
      .limit(limit);
    return rows.flatMap((row) => {
      const files: VersionFile[] = [
        { versionId: row.id, role: "file", key: row.fileKey, size: row.fileSize, sha256: row.sha256 },
      ];
      if (row.iconKey)
        files.push({ versionId: row.id, role: "icon", key: row.iconKey, size: 0, sha256: null });
      if (row.apkKey)
        files.push({ versionId: row.id, role: "apk", key: row.apkKey, size: row.apkSize, sha256: null });
      return files;
    });
  }

  /**
   * How many of the organization's build files are not in `location` (null: the instance's
   * storage); counted in the database, one pass over the organization's versions.
   */
  async countElsewhere(organizationId: number, location: number | null): Promise<number> {
    const outside = (column: AnyPgColumn) =>
      location === null
        ? sql`coalesce((${column} like 'loc/%')::int, 0)`
        : sql`coalesce((${column} not like ${`loc/${location}/%`})::int, 0)`;
    const [row] = await this.deps.db
      .select({
        count: sql<number>`coalesce(sum(${outside(versions.fileKey)} + ${outside(versions.iconKey)} + ${outside(versions.universalApkKey)}), 0)::int`,
      })
      .from(versions)
      .where(eq(versions.organizationId, organizationId));
    return row?.count ?? 0;
  }

  /** Points the build at the copy; false when the build no longer points at `file.key` (changed or gone). */
  async replaceKey(file: VersionFile, newKey: string): Promise<boolean> {
    const property = keyProperties[file.role];
    const column = versions[property];
    const updated = await this.deps.db
      .update(versions)
      .set({ [property]: newKey })
      .where(and(eq(versions.id, file.versionId), eq(column, file.key)))
      .returning({ id: versions.id });
    return updated.length > 0;
  }
}
