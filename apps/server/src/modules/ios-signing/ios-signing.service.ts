/**
 * iOS re-signing: a build's IPA signed again with an organization's own identity (.p12),
 * provisioning profiles and, optionally, new bundle ids. Owns ios_resigns; the work runs as a
 * job that reports through an upload task, and its result is a new version of the app.
 */
import { createHash, X509Certificate } from "node:crypto";
import type { IosResignAccepted, IosResignRecord } from "@tarmac/contracts";
import { checkResignSource, type Profile, ResignError, readProfile } from "@tarmac/inspector/apple-sign";
import { AppError } from "../../http/errors.ts";
import type { SecretBox } from "../../platform/crypto/secret-box.ts";
import type { Database } from "../../platform/db/client.ts";
import type { JobDefinition } from "../../platform/jobs/define-job.ts";
import type { JobQueue } from "../../platform/jobs/job-queue.ts";
import type { StorageResolver } from "../../platform/storage/storage-resolver.ts";
import type { ApplicationService } from "../application/application.service.ts";
import type { DerivedBuildService } from "../upload/derived-build.service.ts";
import { storageSource } from "../upload/storage-source.ts";
import { type ResignInput, resignRefused } from "./ios-resign-input.ts";
import { canResignBuild, resignActions } from "./ios-signing.policy.ts";
import { type IosResignRow, insertResign, listResignsOfVersion } from "./ios-signing.repo.ts";
import { readP12Identity } from "./p12-identity.ts";
import { readEntitlements, type SealedMaterial } from "./resign-material.ts";

export const resignTaskKind = "ios.resign";

export interface IosResignDeps {
  db: Database;
  applications: ApplicationService;
  derivedBuilds: DerivedBuildService;
  storage: StorageResolver;
  jobs: JobQueue;
  secrets: SecretBox;
  resignJob: JobDefinition;
  now: () => Date;
}

export class IosResignService {
  constructor(private readonly deps: IosResignDeps) {}

  async list(userId: number, buildId: number): Promise<IosResignRecord[]> {
    const { version } = await this.deps.applications.getAccessibleVersion(
      userId,
      buildId,
      resignActions.read,
    );
    const rows = await listResignsOfVersion(this.deps.db, version.organizationId, version.id);
    const tasks = new Map(
      (await this.deps.derivedBuilds.listTasks(rows.map((row) => row.taskId))).map((t) => [t.id, t]),
    );
    return rows.map((row) => present(row, tasks.get(row.taskId)));
  }

  /** Checks everything that can be checked without signing, then queues the work (202 with the task). */
  async start(userId: number, input: ResignInput): Promise<IosResignAccepted> {
    const { version, app } = await this.deps.applications.getAccessibleVersion(
      userId,
      input.buildId,
      resignActions.start,
    );
    const buildInfo = (version.buildInfo ?? {}) as Record<string, unknown>;
    if (!canResignBuild({ appType: app.appType, fileType: buildInfo.file_type, state: version.state })) {
      throw AppError.validation({ build_id: ["Only a finished IPA build of an iOS app can be re-signed."] });
    }
    let profiles: Profile[];
    let identity: ReturnType<typeof readP12Identity>;
    try {
      identity = readP12Identity(input.p12, input.password);
      profiles = input.profiles.map((der, index) => readProfile(der, `Provisioning profile ${index + 1}`));
    } catch (error) {
      if (error instanceof ResignError) throw resignRefused(error);
      throw error;
    }
    const entitlements = input.entitlements ? readEntitlements(input.entitlements) : null;
    const { driver } = await this.deps.storage.forOrganization(version.organizationId);
    try {
      await checkResignSource(storageSource(driver, version.fileKey, version.fileSize), {
        identity,
        profiles,
        bundleIds: input.bundleIds,
        entitlements,
        now: this.deps.now(),
      });
    } catch (error) {
      if (error instanceof ResignError) throw resignRefused(error);
      throw error;
    }
    const material: SealedMaterial = {
      p12: input.p12.toString("base64"),
      password: input.password,
      profiles: input.profiles.map((der) => der.toString("base64")),
    };
    const x509 = new X509Certificate(identity.certificate);
    return this.deps.db.transaction(async (tx) => {
      const taskId = await this.deps.derivedBuilds.createTask(tx, {
        organizationId: version.organizationId,
        userId,
        applicationId: app.id,
        versionId: version.id,
        kind: resignTaskKind,
      });
      const row = await insertResign(tx, {
        organizationId: version.organizationId,
        applicationId: app.id,
        versionId: version.id,
        taskId,
        createdBy: userId,
        bundleIds: input.bundleIds,
        certificateSubject: x509.subject.split("\n").join(", "),
        certificateSha256: createHash("sha256").update(identity.certificate).digest("hex"),
        certificateExpires: new Date(x509.validTo),
        profiles: profiles.map((profile) => ({
          name: profile.name,
          uuid: profile.uuid,
          app_id: `${profile.teamId}.${profile.appIdPattern}`,
          expires: profile.expires.toISOString(),
        })),
        customEntitlements: input.entitlements ? input.entitlements.toString("utf8") : null,
        sealedMaterial: this.deps.secrets.seal(JSON.stringify(material)),
      });
      await this.deps.jobs.send(this.deps.resignJob, { taskId }, { tx });
      return { task_id: taskId, id: row.id };
    });
  }
}

function present(
  row: IosResignRow,
  task: { state: string; errorCode: number | null; detail: string } | undefined,
): IosResignRecord {
  const state = task?.state ?? "FAILURE";
  return {
    id: row.id,
    build_id: row.versionId,
    task_id: row.taskId,
    state: (["PENDING", "STARTED", "SUCCESS", "FAILURE"].includes(state)
      ? state
      : "FAILURE") as IosResignRecord["state"],
    error_code: task?.errorCode ?? null,
    detail: task?.detail ?? "",
    bundle_ids: row.bundleIds,
    certificate_subject: row.certificateSubject,
    certificate_sha256: row.certificateSha256,
    certificate_expires: row.certificateExpires.toISOString(),
    profiles: row.profiles,
    custom_entitlements: row.customEntitlements !== null,
    result_build_id: row.resultVersionId,
    created_by: row.createdBy,
    created_at: row.createdAt.toISOString(),
  };
}
