import type { ApplicationRecord, CreateAppInput, Version } from "@tarmac/contracts";

/**
 * Some URLs of this module are answered by modules built on top of it: confirming an upload
 * (POST /api/applications/) and exchanging a version's file (PUT /api/versions/{id}/ with a
 * preload), both the upload module's, and an app's install links (?distribs=1, the
 * distribution module). This module declares what it needs; app.ts binds the later module's
 * service, so imports still point one way only.
 */
export interface ApplicationPorts {
  /** Confirms a preload as a new app, or with `appId` a new version (202 while an AAB converts). */
  confirmBuild(
    userId: number,
    input: CreateAppInput,
    appId?: number,
  ): Promise<{ status: 201; record: ApplicationRecord } | { status: 202; taskId: string }>;
  /** Replaces a version's file with a preload (PUT /api/versions/{id}/ with `preload_path`). */
  exchangeBuild(
    userId: number,
    versionId: number,
    input: { preload_path: string; comment: string },
  ): Promise<Version>;
  /** An app's install links for ?distribs=1 (all) or ?distrib_details={id} (that one). */
  appDistributions(
    userId: number,
    appId: number,
    only: number | null,
  ): Promise<Array<Record<string, unknown>>>;
}
