import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { type AppType, InspectError } from "@tarmac/inspector";
import { ResignError, readProfile, resignIpa } from "@tarmac/inspector/apple-sign";
import { AppError } from "../../http/errors.ts";
import type { ApplicationService } from "../application/application.service.ts";
import type { BuildRecordService } from "../application/build-record.service.ts";
import { findResignByTask, finishResign, type IosResignRow } from "./ios-signing.repo.ts";
import type { IosResignDeps } from "./ios-signing.service.ts";
import { readP12Identity } from "./p12-identity.ts";
import { readEntitlements, type SealedMaterial } from "./resign-material.ts";

/** The spec's upload error codes a failed re-signing reports: 8 set-up, 9 signing failed (6, 7 plan limits). */
function failureOf(error: unknown): { code: number; detail: string } {
  if (error instanceof ResignError) return { code: 8, detail: error.message };
  if (error instanceof AppError && typeof error.errorCode === "number")
    return { code: error.errorCode, detail: error.detail };
  const reason = error instanceof InspectError || error instanceof Error ? error.message : String(error);
  return { code: 9, detail: `The IPA could not be re-signed: ${reason}` };
}

/**
 * Runs one re-signing: opens the sealed material, signs a local copy of the IPA, and adds the
 * result as a new version. The material is cleared whatever happens; a finished task stays
 * finished when the job is retried.
 */
export class IosResignWorker {
  constructor(
    private readonly deps: Pick<IosResignDeps, "db" | "derivedBuilds" | "storage" | "secrets" | "now"> & {
      builds: BuildRecordService;
      applications: Pick<ApplicationService, "findApp">;
    },
  ) {}

  async run(taskId: string): Promise<void> {
    const row = await findResignByTask(this.deps.db, taskId);
    if (!row || row.sealedMaterial === null) return;
    const workDir = await mkdtemp(path.join(os.tmpdir(), "tarmac-resign-"));
    try {
      await this.deps.derivedBuilds.updateTask(taskId, { state: "STARTED" });
      const resultVersionId = await this.resign(row, workDir);
      await this.deps.db.transaction(async (tx) => {
        await finishResign(tx, row.organizationId, row.id, { resultVersionId });
        await this.deps.derivedBuilds.updateTask(taskId, { state: "SUCCESS", detail: "" }, tx);
      });
    } catch (error) {
      const failure = failureOf(error);
      await this.deps.db.transaction(async (tx) => {
        await finishResign(tx, row.organizationId, row.id, {});
        await this.deps.derivedBuilds.updateTask(
          taskId,
          { state: "FAILURE", errorCode: failure.code, detail: failure.detail },
          tx,
        );
      });
      // Refusals are answers; anything else is kept by the job queue as well.
      if (!(error instanceof ResignError) && !(error instanceof AppError)) throw error;
    } finally {
      await rm(workDir, { recursive: true, force: true });
    }
  }

  private async resign(row: IosResignRow, workDir: string): Promise<number> {
    const version = await this.deps.builds.findVersion(row.organizationId, row.versionId);
    const app = await this.deps.applications.findApp(row.organizationId, row.applicationId);
    if (!version || !app)
      throw new ResignError("bundle", "The build was deleted before it could be re-signed.");
    if (row.createdBy === null)
      throw new ResignError("identity", "The person who asked for this re-signing left.");
    const material = JSON.parse(this.deps.secrets.open(row.sealedMaterial as string)) as SealedMaterial;
    const identity = readP12Identity(Buffer.from(material.p12, "base64"), material.password);
    const profiles = material.profiles.map((der, index) =>
      readProfile(Buffer.from(der, "base64"), `Provisioning profile ${index + 1}`),
    );
    const entitlements = row.customEntitlements
      ? readEntitlements(Buffer.from(row.customEntitlements, "utf8"))
      : null;

    const input = path.join(workDir, "source.ipa");
    const output = path.join(workDir, "resigned.ipa");
    const { driver } = await this.deps.storage.forOrganization(row.organizationId);
    await pipeline(await driver.read(version.fileKey), createWriteStream(input));
    await resignIpa(input, output, {
      identity,
      profiles,
      bundleIds: row.bundleIds,
      entitlements,
      now: this.deps.now(),
    });
    const fileName = version.fileName.replace(/(\.ipa)?$/i, "-resigned.ipa");
    const result = await this.deps.derivedBuilds.addDerivedVersion(
      row.createdBy,
      {
        organizationId: row.organizationId,
        applicationId: row.applicationId,
        appType: app.appType as AppType,
        buildNumber: version.buildNumber,
        comment: `Re-signed from ${version.version} (${version.buildNumber}) with ${row.certificateSubject.match(/CN=([^,]+)/)?.[1] ?? "a new identity"}`,
      },
      output,
      fileName,
    );
    return result.versionId;
  }
}
