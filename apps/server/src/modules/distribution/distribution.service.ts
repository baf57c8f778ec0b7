/**
 * Install links of apps: creating, changing and listing them, and the app-level link every app
 * has (made with the app, remade when the last one is deleted, so reads never write). Access to a link's app goes through the application service, so
 * another organization's app or link is "not found".
 */
import { randomBytes } from "node:crypto";
import type {
  CreateDistributionInput,
  DistributionRecord,
  InstallCount,
  UpdateDistributionInput,
} from "@tarmac/contracts";
import QRCode from "qrcode";
import { AppError } from "../../http/errors.ts";
import { hashPassword } from "../../platform/crypto/passwords.ts";
import type { Database } from "../../platform/db/client.ts";
import type { AccessibleApp, ApplicationService } from "../application/application.service.ts";
import type { CatalogLocks } from "../application/catalog-locks.ts";
import type { ReleaseService } from "../application/release.service.ts";
import {
  countEventsByDistribution,
  countEventsOfVersion,
  type DistributionRow,
  deleteDistribution,
  findAppLevelDistribution,
  findDistribution,
  insertDistribution,
  listAppDistributions,
  updateDistribution,
} from "./distribution.repo.ts";
import { installPageUrl } from "./install-links.ts";
import { isExpired, isLimitReached, linkName, linkStateOf, requestedExpiry } from "./link-state.ts";

export interface DistributionServiceDeps {
  db: Database;
  core: ApplicationService;
  releases: ReleaseService;
  catalogLocks: CatalogLocks;
  publicUrl: string;
}

/** 22 URL-safe characters: unguessable, short enough to type from a printed sheet. */
export function newLinkKey(): string {
  return randomBytes(16).toString("base64url");
}

const passwordRequired = () =>
  AppError.validation({ password: ["A password is required for a password-protected link."] });

export class DistributionService {
  constructor(private readonly deps: DistributionServiceDeps) {}

  /** The app's links (its app-level link first); `only` narrows to one link. */
  async listForApp(userId: number, appId: number, only: number | null = null): Promise<DistributionRecord[]> {
    const found = await this.deps.core.getAccessibleApp(userId, appId, "app:read");
    const rows = await listAppDistributions(this.deps.db, found.app.organizationId, found.app.id);
    const selected = only === null ? rows : rows.filter((row) => row.id === only);
    if (only !== null && selected.length === 0) throw AppError.notFound();
    return this.present(selected);
  }

  /**
   * The link that stays valid for the app whatever is uploaded next (the printed one), made with
   * the app. Inside a caller's transaction (`tx`) the app row lock is taken there.
   */
  async ensureAppLink(
    app: Pick<AccessibleApp["app"], "id" | "organizationId">,
    tx?: Database,
  ): Promise<DistributionRow> {
    const existing = await findAppLevelDistribution(tx ?? this.deps.db, app.organizationId, app.id);
    if (existing) return existing;
    const create = async (tx: Database) => {
      await this.deps.catalogLocks.app(app.id, tx);
      const raced = await findAppLevelDistribution(tx, app.organizationId, app.id);
      if (raced) return raced;
      return insertDistribution(tx, {
        organizationId: app.organizationId,
        applicationId: app.id,
        versionId: null,
        key: newLinkKey(),
        access: "public",
      });
    };
    return tx ? create(tx) : this.deps.db.transaction(create);
  }

  /** The address of the app's install page (its permanent link); a read, so it never makes one. */
  async installPageOf(app: Pick<AccessibleApp["app"], "id" | "organizationId">): Promise<string> {
    return installPageUrl(this.deps.publicUrl, (await this.appLinkOf(app)).key);
  }

  /** The app's permanent link. Every app has one (see ensureAppLink and remove). */
  private async appLinkOf(
    app: Pick<AccessibleApp["app"], "id" | "organizationId">,
  ): Promise<DistributionRow> {
    const link = await findAppLevelDistribution(this.deps.db, app.organizationId, app.id);
    if (!link) throw new Error(`App ${app.id} has no app-level install link`);
    return link;
  }

  async create(userId: number, input: CreateDistributionInput): Promise<DistributionRecord> {
    const { app } = await this.deps.core.getAccessibleApp(userId, input.app, "distribution:manage");
    const versionId = input.version ?? null;
    if (versionId !== null) {
      const found = await this.deps.releases.findVersionWithApp(app.organizationId, versionId);
      if (!found || found.app.id !== app.id) {
        throw AppError.validation({ version: ["This version does not belong to the app."] });
      }
    }
    if (input.access === "password" && !input.password) throw passwordRequired();
    const expiresAt = input.expires_at ? requestedExpiry(input.expires_at) : null;
    const row = await insertDistribution(this.deps.db, {
      organizationId: app.organizationId,
      applicationId: app.id,
      versionId,
      key: newLinkKey(),
      access: input.access,
      passwordHash: input.access === "password" && input.password ? await hashPassword(input.password) : null,
      expiresAt,
      installLimit: input.install_limit,
      name: linkName(input.name ?? null),
      createdBy: userId,
    });
    return (await this.present([row]))[0] as DistributionRecord;
  }

  async update(userId: number, id: number, input: UpdateDistributionInput): Promise<DistributionRecord> {
    const row = await this.findManaged(userId, id);
    const access = input.access ?? (row.access as DistributionRecord["access"]);
    let passwordHash = row.passwordHash;
    if (input.password) passwordHash = await hashPassword(input.password);
    if (access !== "password") passwordHash = null;
    else if (!passwordHash) throw passwordRequired();
    const updated = await updateDistribution(this.deps.db, row.organizationId, row.id, {
      access,
      passwordHash,
      ...(input.expires_at !== undefined ? { expiresAt: requestedExpiry(input.expires_at) } : {}),
      ...(input.install_limit !== undefined ? { installLimit: input.install_limit } : {}),
      ...(input.name !== undefined ? { name: linkName(input.name) } : {}),
    });
    if (!updated) throw AppError.notFound();
    return (await this.present([updated]))[0] as DistributionRecord;
  }

  /** Deleting the app's last app-level link makes a new one: the app keeps an install page. */
  async remove(userId: number, id: number): Promise<void> {
    const row = await this.findManaged(userId, id);
    await this.deps.db.transaction(async (tx) => {
      await deleteDistribution(tx, row.organizationId, row.id);
      if (row.versionId === null) {
        await this.ensureAppLink({ id: row.applicationId, organizationId: row.organizationId }, tx);
      }
    });
  }

  /** Installs and downloads of one version through links, by platform. */
  async versionInstalls(userId: number, versionId: number): Promise<InstallCount[]> {
    const { version } = await this.deps.core.getAccessibleVersion(userId, versionId, "app:read");
    const rows = await countEventsOfVersion(this.deps.db, version.organizationId, version.id);
    return rows.map((row) => ({
      platform: row.platform,
      kind: row.kind as InstallCount["kind"],
      count: Number(row.value),
    }));
  }

  /** The app-level link of an app the caller may read, for the printed sheet. */
  async permanentLink(userId: number, appId: number) {
    const found = await this.deps.core.getAccessibleApp(userId, appId, "app:read");
    const link = await this.appLinkOf(found.app);
    return { ...found, link, url: installPageUrl(this.deps.publicUrl, link.key) };
  }

  private async findManaged(userId: number, id: number): Promise<DistributionRow> {
    const row = await findDistribution(this.deps.db, id);
    if (!row) throw AppError.notFound();
    await this.deps.core.getAccessibleApp(userId, row.applicationId, "distribution:manage");
    return row;
  }

  async present(rows: DistributionRow[]): Promise<DistributionRecord[]> {
    const counts = await countEventsByDistribution(
      this.deps.db,
      rows.map((row) => row.id),
    );
    const countOf = (id: number, kind: string) =>
      Number(counts.find((row) => row.distributionId === id && row.kind === kind)?.value ?? 0);
    return Promise.all(
      rows.map(async (row) => {
        const url = installPageUrl(this.deps.publicUrl, row.key);
        return {
          id: row.id,
          app: row.applicationId,
          version: row.versionId,
          key: row.key,
          name: row.name,
          url,
          qr: await QRCode.toDataURL(url, { errorCorrectionLevel: "M", margin: 1, width: 256 }),
          access: row.access as DistributionRecord["access"],
          has_password: row.passwordHash !== null,
          expires_at: row.expiresAt?.toISOString() ?? null,
          install_limit: row.installLimit,
          installs_count: row.installsCount,
          counts: { install: countOf(row.id, "install"), download: countOf(row.id, "download") },
          expired: isExpired(row),
          limit_reached: isLimitReached(row),
          state: linkStateOf(row),
          created_at: row.createdAt.toISOString(),
          updated_at: row.updatedAt.toISOString(),
        };
      }),
    );
  }
}
