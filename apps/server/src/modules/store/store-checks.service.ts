import type { StoreCheckInput, StoreCheckName, StoreCheckResult, StoreKind } from "@tarmac/contracts";
import { AppError } from "../../http/errors.ts";
import type { Database } from "../../platform/db/client.ts";
import type { AccessibleApp, ApplicationService, VersionRow } from "../application/application.service.ts";
import { compareBuildNumbers } from "./file-slices.ts";
import { can } from "./store.policy.ts";
import { type DeveloperAccountRow, findDeveloperAccountById } from "./store.repo.ts";
import type { StoreClients } from "./store-clients.ts";
import { StoreError } from "./store-http.ts";

type Check = StoreCheckResult["checks"][number];

const appTypes: Record<StoreKind, { appType: number; fileType: string; label: string }> = {
  app_store: { appType: 1, fileType: "ipa", label: "an IPA" },
  google_play: { appType: 0, fileType: "aab", label: "an Android App Bundle (.aab)" },
};

export interface PublishTarget extends AccessibleApp {
  account: DeveloperAccountRow;
  version: VersionRow;
}

/** What the store said, or what went wrong asking it. */
function said(error: unknown): string {
  if (error instanceof StoreError) return error.message;
  throw error;
}

/**
 * The checks before a build goes to a store, each failing with its reason before any byte is
 * sent: the store knows the app, the account may upload to it, the build is signed for the
 * store, and its build number is higher than the store's latest.
 */
export class StoreCheckService {
  constructor(
    private readonly deps: { db: Database; applications: ApplicationService; clients: StoreClients },
  ) {}

  /** The app, build and account of a check or an upload, all of the caller's organization. */
  async resolve(userId: number, store: StoreKind, input: StoreCheckInput): Promise<PublishTarget> {
    const found = await this.deps.applications.getAccessibleApp(userId, input.app_id, "app:read");
    if (!can(found.member, "store-upload:start")) throw AppError.forbidden();
    const account = await findDeveloperAccountById(this.deps.db, input.integration_id);
    // Another organization's account is as unknown as a missing one.
    if (!account || account.organizationId !== found.app.organizationId || account.store !== store) {
      throw AppError.validation({ integration_id: ["No such developer account in this organization."] });
    }
    const versionId = input.uid ?? found.app.currentVersionId;
    if (!versionId) throw AppError.validation({ uid: ["The app has no build yet."] });
    const { version } = await this.deps.applications.getAccessibleVersion(userId, versionId, "app:read");
    if (version.applicationId !== found.app.id)
      throw AppError.validation({ uid: ["This build is not of this app."] });
    if (version.state !== "ready")
      throw AppError.validation({ uid: ["This build is still being processed."] });
    return { ...found, account, version };
  }

  async check(
    userId: number,
    store: StoreKind,
    input: StoreCheckInput,
    only?: StoreCheckName,
  ): Promise<StoreCheckResult> {
    const target = await this.resolve(userId, store, input);
    return this.run(target, only);
  }

  async run(target: PublishTarget, only?: StoreCheckName): Promise<StoreCheckResult> {
    const local = localChecks(target);
    const remote =
      target.account.store === "app_store" ? await this.appleChecks(target) : await this.googleChecks(target);
    const checks = [...local, ...remote.checks].filter((check) => !only || check.name === only);
    return { ok: checks.every((check) => check.ok), checks, store_latest_build: remote.latest };
  }

  private async appleChecks({ account, version }: PublishTarget) {
    const checks: Check[] = [];
    const bundleId = version.bundleId ?? "";
    try {
      const client = this.deps.clients.appleFor(account);
      const app = await client.findApp(bundleId);
      if (!app) {
        checks.push({
          name: "app",
          ok: false,
          detail: `App Store Connect has no app with the bundle ID ${bundleId} that this key can see.`,
        });
        return { checks, latest: null };
      }
      checks.push({ name: "app", ok: true, detail: `App Store Connect knows ${bundleId} as "${app.name}".` });
      checks.push({ name: "access", ok: true, detail: "The key can read and upload builds of the app." });
      const latest = await client.latestBuildNumber(app.id);
      checks.push(versionCheck(version.buildNumber, latest));
      return { checks, latest };
    } catch (error) {
      checks.push({ name: checks.length ? "build_version" : "access", ok: false, detail: said(error) });
      return { checks, latest: null };
    }
  }

  private async googleChecks({ account, version }: PublishTarget) {
    const checks: Check[] = [];
    const packageName = version.bundleId ?? "";
    let client: ReturnType<StoreClients["googleFor"]>;
    let editId: string;
    try {
      client = this.deps.clients.googleFor(account);
      editId = await client.insertEdit(packageName);
    } catch (error) {
      const status = error instanceof StoreError ? error.status : null;
      if (status === 404) {
        checks.push({
          name: "app",
          ok: false,
          detail: `Google Play has no app with the package name ${packageName}: ${said(error)}`,
        });
      } else {
        const detail =
          status === 403 ? `The service account may not release ${packageName}: ${said(error)}` : said(error);
        checks.push({ name: "access", ok: false, detail });
      }
      return { checks, latest: null };
    }
    checks.push({ name: "app", ok: true, detail: `Google Play knows ${packageName}.` });
    checks.push({ name: "access", ok: true, detail: "The service account may edit the app's releases." });
    try {
      const code = await client.latestVersionCode(packageName, editId);
      const latest = code === null ? null : String(code);
      checks.push(versionCheck(version.buildNumber, latest));
      return { checks, latest };
    } catch (error) {
      checks.push({ name: "build_version", ok: false, detail: said(error) });
      return { checks, latest: null };
    } finally {
      // The edit was only for reading; an edit left open would expire by itself anyway.
      await client.deleteEdit(packageName, editId).catch(() => undefined);
    }
  }
}

/** What Tarmac knows without asking the store: the file kind and its signature. */
function localChecks({ account, app, version }: PublishTarget): Check[] {
  const store = account.store as StoreKind;
  const wanted = appTypes[store];
  const info = version.buildInfo as {
    file_type?: string;
    provisioning?: { kind?: string } | null;
    signing?: { signed?: boolean } | null;
  };
  if (app.appType !== wanted.appType || info.file_type !== wanted.fileType || !version.bundleId) {
    return [
      { name: "app", ok: false, detail: `This build is not ${wanted.label} with a bundle identifier.` },
    ];
  }
  if (store === "app_store") {
    const kind = info.provisioning?.kind;
    if (kind === "app_store")
      return [{ name: "signing", ok: true, detail: "Signed with an App Store profile." }];
    const detail = kind
      ? `Signed with a ${kind.replaceAll("_", " ")} profile: TestFlight takes only builds signed for App Store distribution.`
      : "The IPA has no provisioning profile: sign it for App Store distribution.";
    return [{ name: "signing", ok: false, detail }];
  }
  if (info.signing?.signed)
    return [{ name: "signing", ok: true, detail: "Signed (with the upload key, as Play expects)." }];
  return [
    { name: "signing", ok: false, detail: "The bundle is not signed: sign it with the app's upload key." },
  ];
}

function versionCheck(buildNumber: string, latest: string | null): Check {
  if (latest === null)
    return { name: "build_version", ok: true, detail: "The store has no build of the app yet." };
  if (compareBuildNumbers(buildNumber, latest) > 0) {
    return {
      name: "build_version",
      ok: true,
      detail: `Build ${buildNumber} is higher than the store's latest, ${latest}.`,
    };
  }
  return {
    name: "build_version",
    ok: false,
    detail: `Build ${buildNumber} is not higher than the store's latest, ${latest}: raise the build number.`,
  };
}
