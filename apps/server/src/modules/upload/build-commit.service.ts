import { randomBytes, randomUUID } from "node:crypto";
import { AppError } from "../../http/errors.ts";
import type { Database } from "../../platform/db/client.ts";
import { isUniqueViolation } from "../../platform/db/db-errors.ts";
import type { JobDefinition } from "../../platform/jobs/define-job.ts";
import type { ApplicationRow } from "../application/application.service.ts";
import type { Quota } from "../organization/organization-usage.service.ts";
import { buildFacts, type StagedBuild, storedFileColumns } from "./build-inspection.ts";
import { watchPlanLimits } from "./plan-limit-events.ts";
import { insertUploadTask } from "./upload.repo.ts";
import type { BuildDeps } from "./upload-deps.ts";
import { uploadError } from "./upload-errors.ts";
import { compareBuilds, newestBuild } from "./version-order.ts";

const bytesPerMb = 1024 * 1024;

export interface NewAppDraft {
  projectTitle?: string;
  title?: string;
  projectId?: number | null;
  description?: string;
  environment?: string;
  slackWebhook?: string;
  slackChannel?: string;
  readyToSale: boolean;
}

export interface VersionDetails {
  whatsNew?: string;
  comment?: string;
  readyToSale: boolean;
  gitBranch?: string | null;
  gitTag?: string | null;
  gitCommit?: string | null;
  gitUrl?: string | null;
  buildType?: string | null;
  customBundleVersion?: string | null;
  /** The user accepted that the build's bundle id replaces the app's (else error 4). */
  uniqueAppIdChanged?: boolean;
  convertToApk?: boolean;
  /**
   * The build was made on the server from another of the app's builds (e.g. re-signed): it may
   * carry another bundle id and sort below newer builds, and its build number gets a suffix.
   */
  derivedFrom?: { buildNumber: string };
  /** Typed by the user; used only when the file itself carries no version. */
  version?: string;
  buildNumber?: string;
}

export type CommitTarget = { kind: "new"; draft: NewAppDraft } | { kind: "version"; appId: number };

export interface CommitResult {
  organizationId: number;
  applicationId: number;
  versionId: number;
  taskId: string | null;
}

/**
 * Spec §5 plan rules, checked under the organization lock (6 space, 7 builds). Uploads waiting
 * for confirmation hold their space and a build slot, so a new upload counts them as if stored;
 * confirming one of them (admitted with its place kept) counts only stored builds.
 */
export function checkBuildLimits(quota: Quota, fileSize: number, options = { countWaiting: true }): void {
  const spaceLimit = quota.spaceLimitMb * bytesPerMb;
  const waitingBytes = options.countWaiting ? quota.pendingUploadBytes : 0;
  const waitingUploads = options.countWaiting ? quota.pendingUploads : 0;
  if (spaceLimit > 0 && quota.spaceUsedBytes + waitingBytes + fileSize >= spaceLimit) throw uploadError(6);
  if (quota.buildLimit > 0 && quota.buildsCount + waitingUploads >= quota.buildLimit) throw uploadError(7);
}

/**
 * Turns a staged build into a version (and, for a new app, a project and an app) in one
 * transaction under the organization lock: limits, version rules, rows, counters and the log
 * move together. Shared by the confirm call and the CI upload.
 */
export class BuildCommitService {
  constructor(private readonly deps: BuildDeps & { convertJob: JobDefinition }) {}

  async commit(
    userId: number,
    organizationId: number,
    target: CommitTarget,
    details: VersionDetails,
    stage: (
      tx: Database,
    ) => Promise<{ staged: StagedBuild; preloadId?: number; release?: (tx: Database) => Promise<void> }>,
  ): Promise<CommitResult> {
    try {
      return await watchPlanLimits(this.deps.events, organizationId, () =>
        this.deps.db.transaction(async (tx) => {
          // Rows first, then the organization (the order every writer takes; see lockCatalogRows).
          const rows =
            target.kind === "version"
              ? { appIds: [target.appId] }
              : { projectIds: target.draft.projectId ? [target.draft.projectId] : [] };
          await this.deps.catalogLocks.rows(rows, "key share", tx);
          await this.deps.membership.lockOrganization(organizationId, tx);
          const { staged, release } = await stage(tx);
          // A confirmed preload gives back what it held; it was admitted with its place kept.
          await release?.(tx);
          return await this.commitLocked(tx, userId, staged, target, details, release !== undefined);
        }),
      );
    } catch (error) {
      // The unique index settles a race the lock did not see (e.g. a deleted and re-created app).
      if (isUniqueViolation(error, "versions_app_version_build_key")) throw uploadError(2);
      if (isUniqueViolation(error, "applications_project_type_env_key")) {
        throw AppError.validation({
          project_app: ["This project already has an app of this platform in this environment."],
        });
      }
      throw error;
    }
  }

  private async commitLocked(
    tx: Database,
    userId: number,
    staged: StagedBuild,
    target: CommitTarget,
    details: VersionDetails,
    reserved: boolean,
  ): Promise<CommitResult> {
    const organizationId = staged.organizationId;
    const facts = buildFacts(staged.buildInfo);
    const convert = Boolean(details.convertToApk) && facts.fileType === "aab";
    if (convert && !this.deps.aabConversion) throw uploadError(8);
    // Bundles become installable by themselves wherever the instance can convert them: the
    // version is ready at once (the bundle), and its APK follows in the background.
    const automatic = !convert && facts.fileType === "aab" && this.deps.aabConversion;
    const quota = await this.deps.usage.getQuota(organizationId, tx);
    if (!quota) throw AppError.notFound();
    checkBuildLimits(quota, staged.fileSize, { countWaiting: !reserved });

    const useTyped = !facts.version || facts.versionFromFileName;
    const version = (useTyped && details.version) || facts.version || "";
    let buildNumber = (useTyped && details.buildNumber) || facts.buildNumber || "0";

    let app: ApplicationRow;
    let created = false;
    let newBundleId: string | null | undefined;
    if (target.kind === "new") {
      app = await this.createApp(tx, userId, quota, staged, target.draft, facts.bundleId);
      await this.deps.appLinks.ensureAppLink(app, tx);
      created = true;
    } else {
      const found = await this.deps.applications.findApp(organizationId, target.appId, tx);
      if (!found) throw AppError.notFound();
      app = found;
      if (details.derivedFrom) {
        if (staged.appType !== app.appType) throw uploadError(5);
        buildNumber = await this.freeDerivedNumber(tx, app.id, version, details.derivedFrom.buildNumber);
      }
    }
    if (target.kind === "version" && !details.derivedFrom) {
      newBundleId = await this.checkVersionRules(
        tx,
        app,
        staged,
        { version, buildNumber },
        facts.bundleId,
        details,
      );
    }

    const row = await this.deps.builds.addVersion(
      {
        organizationId,
        applicationId: app.id,
        version,
        buildNumber,
        state: convert ? "processing" : "ready",
        ...storedFileColumns(staged),
        bundleId: facts.bundleId,
        minOsVersion: facts.minOsVersion,
        whatsNew: details.whatsNew ?? "",
        comment: details.comment ?? "",
        readyToSale: details.readyToSale,
        gitBranch: details.gitBranch ?? null,
        gitTag: details.gitTag ?? null,
        gitCommit: details.gitCommit ?? null,
        gitUrl: details.gitUrl ?? null,
        buildType: details.buildType ?? null,
        customBundleVersion: details.customBundleVersion ?? null,
        uploadedBy: userId,
      },
      newBundleId,
      tx,
    );
    await this.deps.usage.addUsage(organizationId, { bytes: staged.fileSize, builds: 1 }, tx);

    const log = { organizationId, applicationId: app.id, userId, versionId: row.id };
    const about = { version, build_version_number: buildNumber, file_name: staged.fileName };
    if (created)
      await this.deps.appLogs.record(
        { ...log, action: "app.created", detail: { title: app.title, ...about } },
        tx,
      );
    else await this.deps.appLogs.record({ ...log, action: "version.uploaded", detail: about }, tx);
    if (newBundleId !== undefined && app.bundleId) {
      await this.deps.appLogs.record(
        { ...log, action: "app.bundle_id_changed", detail: { from: app.bundleId, to: newBundleId } },
        tx,
      );
    }

    const event = { organizationId, applicationId: app.id, versionId: row.id };
    await this.deps.events.publish({ type: "build.uploaded", ...event }, { tx });
    if (!convert) await this.deps.events.publish({ type: "build.ready", ...event }, { tx });

    let taskId: string | null = null;
    if (convert || automatic) {
      taskId = randomUUID();
      await insertUploadTask(tx, {
        id: taskId,
        organizationId,
        userId,
        applicationId: app.id,
        versionId: row.id,
        kind: this.deps.convertJob.name,
      });
      await this.deps.jobs.send(this.deps.convertJob, { taskId, automatic }, { tx });
    }
    // Only an asked-for conversion is waited for (202 and the task); an automatic one is not.
    return { organizationId, applicationId: app.id, versionId: row.id, taskId: convert ? taskId : null };
  }

  private async freeDerivedNumber(
    tx: Database,
    appId: number,
    version: string,
    base: string,
  ): Promise<string> {
    const taken = new Set(
      (await this.deps.builds.listVersionKeys(appId, tx))
        .filter((row) => row.version === version)
        .map((row) => row.buildNumber),
    );
    let counter = 1;
    while (taken.has(`${base}.r${counter}`)) counter += 1;
    return `${base}.r${counter}`;
  }

  /** Rules 5, 2, 3, 4 for a new version; returns the bundle id to set when the user accepted a change. */
  private async checkVersionRules(
    tx: Database,
    app: ApplicationRow,
    staged: StagedBuild,
    key: { version: string; buildNumber: string },
    bundleId: string | null,
    details: VersionDetails,
  ): Promise<string | undefined> {
    if (staged.appType !== app.appType) throw uploadError(5);
    // Another app's build is that first, whatever its version: "older" or "exists" would send
    // the person looking for a version problem they do not have.
    const otherApp = Boolean(app.bundleId && bundleId && app.bundleId !== bundleId);
    if (otherApp && !details.uniqueAppIdChanged) throw uploadError(4);
    const existing = await this.deps.builds.listVersionKeys(app.id, tx);
    if (existing.some((row) => row.version === key.version && row.buildNumber === key.buildNumber)) {
      throw uploadError(2);
    }
    const newest = newestBuild(existing);
    if (newest && compareBuilds(key, newest) < 0) throw uploadError(3);
    if (otherApp || (!app.bundleId && bundleId)) return bundleId ?? undefined;
    return undefined;
  }

  private async createApp(
    tx: Database,
    userId: number,
    quota: Quota,
    staged: StagedBuild,
    draft: NewAppDraft,
    bundleId: string | null,
  ): Promise<ApplicationRow> {
    const organizationId = staged.organizationId;
    let projectId: number;
    let title: string;
    if (draft.projectId) {
      const project = await this.deps.builds.findProject(organizationId, draft.projectId, tx);
      if (!project) {
        throw AppError.validation({
          project_app: [`Invalid pk "${draft.projectId}" - object does not exist.`],
        });
      }
      projectId = project.id;
      title = draft.title || project.title;
    } else {
      const missing: Record<string, string[]> = {};
      if (!draft.projectTitle) missing.project_title = ["This field is required."];
      if (!draft.title) missing.title = ["This field is required."];
      if (Object.keys(missing).length > 0) throw AppError.validation(missing);
      if (quota.projectsLimit > 0 && quota.projectsCount >= quota.projectsLimit) {
        throw new AppError(
          "projects_limit_reached",
          400,
          `The plan's project limit is reached. ${this.deps.usage.limitAdvice()}`,
          undefined,
          "projects_limit_reached",
        );
      }
      projectId = (await this.deps.builds.createProject(organizationId, draft.projectTitle as string, tx)).id;
      await this.deps.usage.addUsage(organizationId, { projects: 1 }, tx);
      title = draft.title as string;
    }
    return this.deps.builds.createApp(
      {
        organizationId,
        projectId,
        title,
        appType: staged.appType,
        environment: draft.environment || "Production",
        description: draft.description ?? "",
        appKey: randomBytes(20).toString("hex"),
        bundleId,
        slackWebhookSealed: draft.slackWebhook ? this.deps.slackWebhookBox.seal(draft.slackWebhook) : null,
        slackChannel: draft.slackChannel ?? "",
        readyToSale: draft.readyToSale,
        createdBy: userId,
      },
      tx,
    );
  }
}
