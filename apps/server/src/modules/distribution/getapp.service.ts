/**
 * The public side of install links: the page data, unlocking password links, the iOS manifest
 * and the files. Visitors need no account except on members-only links; a key that does not
 * exist answers 404 whatever organization the visitor belongs to.
 */
import {
  type AppType,
  type DistributionAccess,
  detectDevicePlatform,
  type GetappBuild,
  type GetappPage,
  getappPlatform,
  type UnlockResult,
} from "@tarmac/contracts";
import type { Actor } from "../../http/auth.ts";
import { AppError } from "../../http/errors.ts";
import { verifyPassword } from "../../platform/crypto/passwords.ts";
import type { Database } from "../../platform/db/client.ts";
import type { ApplicationService, VersionRow } from "../application/application.service.ts";
import type { ReleaseService } from "../application/release.service.ts";
import type { VersionPresenter } from "../application/version.presenter.ts";
import type { OrganizationService } from "../organization/organization.service.ts";
import type { TesterService } from "../tester/tester.service.ts";
import { type DistributionRow, findDistributionByKey } from "./distribution.repo.ts";
import type { InstallLinkSigner, LinkFileKind } from "./install-links.ts";
import {
  type InstallClient,
  InstallLimitReached,
  type InstallReservations,
} from "./install-reservations.service.ts";
import { iosInstallSupport } from "./ios-install-support.ts";
import { buildInstallManifest, itmsServicesLink } from "./lib/install-manifest.ts";
import type { LinkPasswordGuard } from "./link-password-guard.ts";
import { isExpired, isLimitReached } from "./link-state.ts";

const iosAppType = 1;
const accessTokenTtlSeconds = 3600;

/** Files and manifests of an expired link are gone; the install limit is the reservations' to check. */
function assertNotExpired(link: DistributionRow): void {
  if (isExpired(link)) throw new AppError("gone", 410, "This link has expired.");
}

/** 403 of a members-only link: the page offers to sign in. */
export class LoginRequiredError extends AppError {
  constructor() {
    super("login_required", 403, "Sign in with an account that may install this app.");
  }
  override body() {
    return { detail: this.detail, login_required: true };
  }
}

/** 410 of an expired or used-up link; the page still shows what the link was for. */
export class LinkGoneError extends AppError {
  constructor(readonly page: GetappPage) {
    super("gone", 410, page.expired ? "This link has expired." : "This link has reached its install limit.");
  }
  override body() {
    return { ...this.page, detail: this.detail };
  }
}

/**
 * The platform of whatever fetched a manifest or file. iOS fetches manifests and IPAs from a
 * system daemon whose User-Agent names the model ("… iOS/17.4 model/iPhone15,2 …"), not Safari's.
 */
export function installPlatform(userAgent: string | undefined): string {
  const ua = userAgent ?? "";
  if (/\bmodel\/iPad/.test(ua)) return "ipad";
  if (/\bmodel\/iP(hone|od)/.test(ua) || /\biOS\/\d/.test(ua)) return "iphone";
  return detectDevicePlatform(ua);
}

export interface GetappServiceDeps {
  db: Database;
  core: ApplicationService;
  releases: ReleaseService;
  organizations: Pick<OrganizationService, "getTitle">;
  testers: Pick<TesterService, "isTesterOf">;
  reservations: InstallReservations;
  versions: VersionPresenter;
  links: InstallLinkSigner;
  passwords: LinkPasswordGuard;
  publicUrl: string;
}

export interface FileTarget {
  versionId: number;
  kind: LinkFileKind;
  expires: number;
  signature: string;
}

export interface StoredFile {
  key: string;
  fileName: string;
  contentType: string;
}

export interface DeliverableFile extends StoredFile {
  /** Counts the download once a response carried the file's last byte. */
  delivered: () => Promise<void>;
  /** Gives the install place back when this request delivered nothing. */
  abandoned: () => Promise<void>;
}

export class GetappService {
  constructor(private readonly deps: GetappServiceDeps) {}

  async page(key: string, viewer: { actor: Actor | null; accessToken?: string }): Promise<GetappPage> {
    const link = await this.findLink(key);
    const app = await this.deps.core.findApp(link.organizationId, link.applicationId);
    if (!app) throw AppError.notFound();
    if (link.access === "members" && !(await this.isAllowedMember(link, viewer.actor))) {
      throw new LoginRequiredError();
    }
    const locked =
      link.access === "password" &&
      !(viewer.accessToken && this.deps.links.verifyAccessToken(link, viewer.accessToken));
    const expired = isExpired(link);
    const limitReached = isLimitReached(link);
    const builds = locked || expired || limitReached ? [] : await this.builds(link, app);
    const page: GetappPage = {
      title: app.title,
      icon: await this.iconOf(link, app.currentVersionId),
      organization: await this.deps.organizations.getTitle(app.organizationId),
      description: app.description,
      access: link.access as DistributionAccess,
      needs_password: locked,
      expired,
      limit_reached: limitReached,
      https: iosInstallSupport(this.deps.publicUrl).ios_installs,
      builds,
    };
    if (expired || limitReached) throw new LinkGoneError(page);
    return page;
  }

  /**
   * What a link preview (a chat's crawler, no cookies) may show: the page as an anonymous visitor
   * sees it, an expired link included; nothing for a members-only or unknown link.
   */
  async previewPage(key: string): Promise<GetappPage | null> {
    try {
      return await this.page(key, { actor: null });
    } catch (error) {
      if (error instanceof LinkGoneError) return error.page;
      if (error instanceof AppError && error.status < 500) return null;
      throw error;
    }
  }

  async unlock(key: string, password: string, clientAddress: string): Promise<UnlockResult> {
    const link = await this.findLink(key);
    if (link.access !== "password") throw AppError.badRequest("This link has no password.");
    const right = await this.deps.passwords.check(link, clientAddress, () =>
      verifyPassword(link.passwordHash, password),
    );
    if (!right) {
      throw AppError.validation({ password: ["Incorrect password."] });
    }
    return {
      access_token: this.deps.links.accessToken(link, accessTokenTtlSeconds),
      expires_in: accessTokenTtlSeconds,
    };
  }

  /** The manifest.plist an iPhone reads; fetching it is what counts as an install. */
  async manifest(
    key: string,
    query: { version: number; expires: number; signature: string },
    client: InstallClient,
  ): Promise<string> {
    const link = await this.findLink(key);
    if (!this.deps.links.verifyManifest(link.id, query.version, query.expires, query.signature)) {
      throw AppError.forbidden("This link has expired or is invalid.");
    }
    assertNotExpired(link);
    const found = await this.deps.releases.findVersionWithApp(link.organizationId, query.version);
    if (!found || found.app.appType !== iosAppType) throw AppError.notFound();
    const { app, version } = found;
    const { reservation } = await this.reserve(link, version.id, client, { takesSlot: true });
    await this.deps.reservations.count(
      reservation,
      this.event(link, version.id, client.userAgent),
      "install",
    );
    return buildInstallManifest({
      ipaUrl: this.deps.links.fileUrl(link, version.id, "file"),
      bundleId: version.bundleId ?? app.bundleId ?? "",
      bundleVersion: version.version,
      title: app.title,
      iconUrl: await this.deps.versions.iconUrl(version.iconKey),
    });
  }

  /** What a signed file link serves (a HEAD answers with this and counts nothing). */
  async describeFile(key: string, target: FileTarget): Promise<StoredFile> {
    return (await this.locateFile(key, target)).file;
  }

  /**
   * A file download: the client's place in the link's limit is taken before the first byte;
   * `delivered` counts it once a response carried the last byte, `abandoned` gives the place
   * back when this request delivered nothing.
   */
  async file(key: string, target: FileTarget, client: InstallClient): Promise<DeliverableFile> {
    const { link, app, version, file } = await this.locateFile(key, target);
    // An iOS install took its place in the limit when its manifest was read.
    const takesSlot = app.appType !== iosAppType;
    const { reservation, created } = await this.reserve(link, version.id, client, { takesSlot });
    const event = this.event(link, version.id, client.userAgent);
    return {
      ...file,
      delivered: () => this.deps.reservations.count(reservation, event, "download"),
      abandoned: async () => {
        if (created) await this.deps.reservations.release(reservation);
      },
    };
  }

  private async locateFile(key: string, target: FileTarget) {
    const link = await this.findLink(key);
    const { versionId, kind } = target;
    if (!this.deps.links.verifyFile(link.id, versionId, kind, target.expires, target.signature)) {
      throw AppError.forbidden("This link has expired or is invalid.");
    }
    const found = await this.deps.releases.findVersionWithApp(link.organizationId, versionId);
    if (!found) throw AppError.notFound();
    assertNotExpired(link);
    const { app, version } = found;
    if (kind === "universal-apk") {
      if (!version.universalApkKey) throw AppError.notFound();
      const fileName = `${version.fileName.replace(/\.(aab|apk)$/i, "")}.apk`;
      const file = {
        key: version.universalApkKey,
        fileName,
        contentType: "application/vnd.android.package-archive",
      };
      return { link, app, version, file };
    }
    const file = { key: version.fileKey, fileName: version.fileName, contentType: version.contentType };
    return { link, app, version, file };
  }

  /** The client's place in the link's limit for this build (410 when none is left). */
  private async reserve(
    link: DistributionRow,
    versionId: number,
    client: InstallClient,
    options: { takesSlot: boolean },
  ) {
    try {
      return await this.deps.reservations.reserve(link, versionId, client, options);
    } catch (error) {
      if (error instanceof InstallLimitReached) {
        throw new AppError("gone", 410, "This link has reached its install limit.");
      }
      throw error;
    }
  }

  private async findLink(key: string): Promise<DistributionRow> {
    const link = await findDistributionByKey(this.deps.db, key);
    if (!link) throw AppError.notFound();
    return link;
  }

  private event(link: DistributionRow, versionId: number, userAgent: string | undefined) {
    return {
      organizationId: link.organizationId,
      applicationId: link.applicationId,
      versionId,
      distributionId: link.id,
      platform: installPlatform(userAgent),
    };
  }

  /** A signed-in member who may read the app, or a tester of the app. */
  private async isAllowedMember(link: DistributionRow, actor: Actor | null): Promise<boolean> {
    if (!actor?.isActive) return false;
    try {
      await this.deps.core.getAccessibleApp(actor.userId, link.applicationId, "app:read");
      return true;
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
    }
    return this.deps.testers.isTesterOf(link.applicationId, actor);
  }

  private async builds(
    link: DistributionRow,
    app: { organizationId: number; projectId: number; environment: string },
  ): Promise<GetappBuild[]> {
    const rows =
      link.versionId === null
        ? await this.deps.releases.newestReleasedPerApp(app.organizationId, app.projectId, app.environment)
        : [await this.deps.releases.findVersionWithApp(link.organizationId, link.versionId)].filter(
            (row) => row !== null && row.version.state === "ready",
          );
    return rows.flatMap((row) => (row ? [this.build(link, row.app, row.version)] : []));
  }

  private build(link: DistributionRow, app: { appType: number }, version: VersionRow): GetappBuild {
    const universal = app.appType === 0 && Boolean(version.universalApkKey);
    const install: GetappBuild["install"] =
      app.appType === iosAppType
        ? { kind: "itms", url: itmsServicesLink(this.deps.links.manifestUrl(link, version.id)) }
        : {
            kind: "download",
            url: this.deps.links.fileUrl(link, version.id, universal ? "universal-apk" : "file"),
          };
    return {
      id: version.id,
      platform: getappPlatform.options[app.appType] ?? "android",
      app_type: app.appType as AppType,
      version: version.version,
      build_version_number: version.buildNumber,
      whats_new: version.whatsNew,
      size: universal ? version.universalApkSize : version.fileSize,
      min_os_version: version.minOsVersion,
      date: version.createdAt.toISOString(),
      install,
    };
  }

  /** The icon of the linked build, else of the app's current build, else the one the app kept. */
  private async iconOf(link: DistributionRow, currentVersionId: number | null): Promise<string | null> {
    const versionId = link.versionId ?? currentVersionId;
    if (versionId === null) return null;
    const found = await this.deps.releases.findVersionWithApp(link.organizationId, versionId);
    const key =
      found?.version.iconKey ??
      (await this.deps.releases.appIconKey(link.organizationId, link.applicationId));
    return this.deps.versions.iconUrl(key);
  }
}
