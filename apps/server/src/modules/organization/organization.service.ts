/**
 * Owns organizations: creation (the creator becomes owner, the plan comes from the plan
 * service), reading them as a member, settings (title, subdomain, logo), the SDK key and the
 * once-a-day limit notice to the owner.
 */
import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import type { CreateOrganizationInput, Organization, PatchOrganizationInput } from "@tarmac/contracts";
import { AppError } from "../../http/errors.ts";
import type { PageParams } from "../../http/pagination.ts";
import type { Database } from "../../platform/db/client.ts";
import { isUniqueViolation } from "../../platform/db/db-errors.ts";
import type { JobDefinition } from "../../platform/jobs/define-job.ts";
import type { JobQueue } from "../../platform/jobs/job-queue.ts";
import type { mailMessage } from "../../platform/mail/mail.jobs.ts";
import type { StorageDriver } from "../../platform/storage/storage-driver.ts";
import type { PlanService } from "../plan/plan.service.ts";
import {
  contentTypeOfKey,
  detectImageType,
  type ImageType,
  maxLogoBytes,
  organizationStoragePrefix,
} from "./logo.ts";
import type { MemberContext, MembershipService } from "./membership.service.ts";
import { can, type OrganizationAction } from "./organization.policy.ts";
import {
  claimLimitNotice,
  findOrganizationById,
  findOrganizationOfUser,
  findOwner,
  insertOrganization,
  insertOwnerMembership,
  listOrganizationsOfUser,
  type OrganizationView,
  updateOrganization,
} from "./organization.repo.ts";

export interface OrganizationServiceDeps {
  db: Database;
  membership: MembershipService;
  plans: PlanService;
  storage: StorageDriver;
  jobs: JobQueue;
  sendMail: JobDefinition<typeof mailMessage>;
  publicUrl: string;
}

const subdomainTaken = () => AppError.validation({ subdomain: ["This subdomain is already taken."] });

export function generateSdkKey(): string {
  return randomBytes(24).toString("base64url");
}

function checkLogo(bytes: Buffer): ImageType {
  if (bytes.length > maxLogoBytes) throw AppError.validation({ logo: ["The logo must be at most 2 MB."] });
  const type = detectImageType(bytes);
  if (!type) throw AppError.validation({ logo: ["Upload a PNG, JPEG or WebP image."] });
  return type;
}

export function assertAllowed(member: MemberContext, action: OrganizationAction): void {
  if (!can(member, action)) throw AppError.forbidden();
}

export class OrganizationService {
  constructor(private readonly deps: OrganizationServiceDeps) {}

  async create(actorUserId: number, input: CreateOrganizationInput): Promise<Organization> {
    const { db, plans } = this.deps;
    try {
      const organizationId = await db.transaction(async (tx) => {
        const plan = await plans.getPlanForNewOrganization(tx);
        const created = await insertOrganization(tx, {
          title: input.title,
          subdomain: input.subdomain,
          planId: plan.id,
          sdkKey: generateSdkKey(),
        });
        await insertOwnerMembership(tx, created.id, actorUserId);
        return created.id;
      });
      return this.get(actorUserId, organizationId);
    } catch (error) {
      if (isUniqueViolation(error, "organizations_subdomain_key")) throw subdomainTaken();
      throw error;
    }
  }

  async list(actorUserId: number, params: PageParams): Promise<{ count: number; results: Organization[] }> {
    const { count, rows } = await listOrganizationsOfUser(this.deps.db, actorUserId, {
      limit: params.pageSize,
      offset: params.offset,
    });
    return { count, results: rows.map((row) => this.present(row)) };
  }

  async get(actorUserId: number, organizationId: number): Promise<Organization> {
    const row = await findOrganizationOfUser(this.deps.db, organizationId, actorUserId);
    if (!row) throw AppError.notFound();
    return this.present(row);
  }

  async rotateSdkKey(actorUserId: number, organizationId: number): Promise<Organization> {
    const member = await this.deps.membership.getMembership(actorUserId, organizationId);
    assertAllowed(member, "organization:rotate-sdk-key");
    await updateOrganization(this.deps.db, organizationId, { sdkKey: generateSdkKey() });
    return this.get(actorUserId, organizationId);
  }

  /** Mails the owner when a plan limit is critical, at most once per 24 hours. */
  async sendLimitNotice(
    actorUserId: number,
    organizationId: number,
    now = new Date(),
  ): Promise<Organization & { limit_notice_sent: boolean }> {
    const member = await this.deps.membership.getMembership(actorUserId, organizationId);
    assertAllowed(member, "organization:send-limit-notice");
    const { db, jobs, plans, sendMail, publicUrl } = this.deps;
    const sent = await db.transaction(async (tx) => {
      const usage = await plans.readUsage(organizationId, tx);
      if (!usage.critical) return false;
      if (!(await claimLimitNotice(tx, organizationId, now))) return false;
      const organization = await findOrganizationById(tx, organizationId);
      const owner = await findOwner(tx, organizationId);
      if (!organization || !owner) return false;
      const text = [
        `Hello${owner.firstName ? ` ${owner.firstName}` : ""},`,
        "",
        `The organization "${organization.title}" has reached a critical level of its plan:`,
        `storage ${usage.space_used} MB of ${usage.space_limit || "unlimited"} MB,`,
        `builds ${usage.builds_count} of ${usage.build_limit || "unlimited"}.`,
        "",
        `Uploads will fail once a limit is reached. Choose a larger plan at ${publicUrl}/dashboard.`,
      ].join("\n");
      await jobs.send(
        sendMail,
        { to: owner.email, subject: `${organization.title}: plan limit almost reached`, text },
        { tx },
      );
      return true;
    });
    return { ...(await this.get(actorUserId, organizationId)), limit_notice_sent: sent };
  }

  /** Title and subdomain; with `logo`, also the logo (checked before anything changes). */
  async update(
    actorUserId: number,
    organizationId: number,
    input: PatchOrganizationInput,
    logo?: Buffer,
  ): Promise<Organization> {
    const member = await this.deps.membership.getMembership(actorUserId, organizationId);
    assertAllowed(member, "organization:update");
    if (logo) assertAllowed(member, "organization:upload-logo");
    const logoType = logo ? checkLogo(logo) : null;
    try {
      await updateOrganization(this.deps.db, organizationId, {
        ...(input.title !== undefined ? { title: input.title } : {}),
        ...(input.subdomain !== undefined ? { subdomain: input.subdomain } : {}),
      });
    } catch (error) {
      if (isUniqueViolation(error, "organizations_subdomain_key")) throw subdomainTaken();
      throw error;
    }
    if (logo && logoType) await this.replaceLogo(organizationId, logo, logoType);
    return this.get(actorUserId, organizationId);
  }

  /** Stores the logo under the organization's prefix with a generated key, then drops the old one. */
  private async replaceLogo(organizationId: number, bytes: Buffer, type: ImageType): Promise<void> {
    const { db, storage } = this.deps;
    const previous = await findOrganizationById(db, organizationId);
    const name = randomBytes(12).toString("hex");
    const key = `${organizationStoragePrefix(organizationId)}logo/${name}.${type.extension}`;
    await storage.put(key, Readable.from([bytes]), { maxBytes: maxLogoBytes });
    try {
      await updateOrganization(db, organizationId, { logoKey: key });
    } catch (error) {
      await storage.delete(key).catch(() => undefined);
      throw error;
    }
    if (previous?.logoKey) await storage.delete(previous.logoKey).catch(() => undefined);
  }

  async readLogo(actorUserId: number, organizationId: number) {
    const member = await this.deps.membership.getMembership(actorUserId, organizationId);
    assertAllowed(member, "organization:view-logo");
    const organization = await findOrganizationById(this.deps.db, organizationId);
    const key = organization?.logoKey;
    const info = key ? await this.deps.storage.stat(key) : null;
    if (!key || !info) throw AppError.notFound();
    return {
      body: await this.deps.storage.read(key),
      size: info.size,
      contentType: contentTypeOfKey(key),
    };
  }

  private present(row: OrganizationView): Organization {
    const logoVersion = row.logoKey?.slice(row.logoKey.lastIndexOf("/") + 1, row.logoKey.lastIndexOf("."));
    return {
      id: row.id,
      title: row.title,
      subdomain: row.subdomain,
      logo: row.logoKey ? `${this.deps.publicUrl}/api/organizations/${row.id}/logo/?v=${logoVersion}` : null,
      role: row.role,
      user_limit: row.userLimit,
      users_count: row.usersCount,
      plan: { id: row.planId, code: row.planCode, title: row.planTitle },
      created_at: row.createdAt.toISOString(),
      sdk_key: can({ role: row.role }, "organization:view-sdk-key") ? row.sdkKey : null,
    };
  }
}
