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
import { detectImageType, type ImageType } from "../../platform/images/raster-image.ts";
import type { Mail } from "../../platform/mail/mail-queue.ts";
import type { StorageDriver } from "../../platform/storage/storage-driver.ts";
import type { PlanService } from "../plan/plan.service.ts";
import { effectiveLimits } from "./effective-limits.ts";
import { contentTypeOfKey, maxLogoBytes, organizationStoragePrefix } from "./logo.ts";
import type { MemberContext, MembershipService } from "./membership.service.ts";
import { can, type OrganizationAction } from "./organization.policy.ts";
import {
  claimLimitNotice,
  findOrganizationById,
  findOrganizationBySubdomain,
  findOrganizationsByIds,
  insertOrganization,
  listOrganizationsOfUser,
  type OrganizationRow,
  updateOrganization,
} from "./organization.repo.ts";
import type { OrganizationUsageService } from "./organization-usage.service.ts";
import { roles } from "./roles.ts";

export interface OrganizationServiceDeps {
  db: Database;
  membership: MembershipService;
  plans: PlanService;
  usage: OrganizationUsageService;
  storage: StorageDriver;
  mail: Mail;
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
        await this.deps.membership.addMember(
          { organizationId: created.id, userId: actorUserId, role: roles.owner },
          tx,
        );
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
    return { count, results: await this.present(rows) };
  }

  async get(actorUserId: number, organizationId: number): Promise<Organization> {
    const member = await this.deps.membership.getMembership(actorUserId, organizationId);
    const organization = await findOrganizationById(this.deps.db, organizationId);
    if (!organization) throw AppError.notFound();
    const [presented] = await this.present([{ organization, role: member.role }]);
    if (!presented) throw AppError.notFound();
    return presented;
  }

  /** Every organization the user belongs to (not those being deleted), with role, plan and head count. */
  async listOfMember(userId: number) {
    const memberships = await this.deps.membership.listMemberships(userId);
    const ids = memberships.map((member) => member.organizationId);
    const rows = await findOrganizationsByIds(this.deps.db, ids);
    const plans = await this.deps.plans.findPlans(rows.map((row) => row.planId));
    const seats = await this.deps.usage.seatsTaken(ids);
    const roleOf = new Map(memberships.map((member) => [member.organizationId, member.role]));
    return rows
      .sort((left, right) => left.id - right.id)
      .flatMap((organization) => {
        const plan = plans.get(organization.planId);
        const role = roleOf.get(organization.id);
        if (!plan || role === undefined) return [];
        const limits = effectiveLimits(plan, organization.limitOverrides);
        return [{ organization, role, plan, limits, usersCount: seats.get(organization.id) ?? 0 }];
      });
  }

  /** The organization's name, for mails sent in its name. */
  async getTitle(organizationId: number, db = this.deps.db): Promise<string> {
    return (await findOrganizationById(db, organizationId))?.title ?? "";
  }

  /** Names of several organizations, keyed by id. */
  async getTitles(organizationIds: number[], db = this.deps.db): Promise<Map<number, string>> {
    const rows = await findOrganizationsByIds(db, [...new Set(organizationIds)]);
    return new Map(rows.map((row) => [row.id, row.title]));
  }

  /** The organization a subdomain names (single sign-on starts from it). */
  findBySubdomain(subdomain: string) {
    return findOrganizationBySubdomain(this.deps.db, subdomain);
  }

  /** The subdomains of organizations, by id. */
  /** Titles and subdomains of many organizations at once (one query), keyed by id. */
  async namesOf(
    organizationIds: number[],
  ): Promise<Map<number, { id: number; title: string; subdomain: string }>> {
    const rows = await findOrganizationsByIds(this.deps.db, [...new Set(organizationIds)]);
    return new Map(rows.map((row) => [row.id, { id: row.id, title: row.title, subdomain: row.subdomain }]));
  }

  async subdomainsOf(organizationIds: number[]): Promise<Map<number, string>> {
    const rows = await findOrganizationsByIds(this.deps.db, [...new Set(organizationIds)]);
    return new Map(rows.map((row) => [row.id, row.subdomain]));
  }

  /** The organization's SDK key, which apps built with the Updraft SDK send with every call. */
  async sdkKeyOf(organizationId: number): Promise<string | null> {
    return (await findOrganizationById(this.deps.db, organizationId))?.sdkKey ?? null;
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
    const { db, usage: usageService, mail, publicUrl, membership } = this.deps;
    const sent = await db.transaction(async (tx) => {
      const usage = await usageService.readUsage(organizationId, tx);
      if (!usage.critical) return false;
      if (!(await claimLimitNotice(tx, organizationId, now))) return false;
      const organization = await findOrganizationById(tx, organizationId);
      const owner = await membership.findOwner(organizationId, tx);
      if (!organization || !owner) return false;
      await mail.queue(
        {
          to: owner.email,
          subject: `${organization.title}: plan limit almost reached`,
          organization: { id: organizationId, name: organization.title },
          title: "Plan limit almost reached",
          blocks: [
            `Hello${owner.firstName ? ` ${owner.firstName}` : ""},`,
            [
              `The organization "${organization.title}" has reached a critical level of its plan:`,
              `storage ${usage.space_used} MB of ${usage.space_limit || "unlimited"} MB,`,
              `builds ${usage.builds_count} of ${usage.build_limit || "unlimited"}.`,
            ].join("\n"),
            `Uploads will fail once a limit is reached. ${this.deps.plans.limitAdvice()}`,
            { button: "See the plan", url: `${publicUrl}/dashboard/organization/plan` },
          ],
        },
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

  /** Organizations as one member sees them: plan, member count and (for admins) the SDK key. */
  private async present(rows: { organization: OrganizationRow; role: number }[]): Promise<Organization[]> {
    const ids = rows.map((row) => row.organization.id);
    const plans = await this.deps.plans.findPlans(rows.map((row) => row.organization.planId));
    const seats = await this.deps.usage.seatsTaken(ids);
    return rows.map(({ organization, role }) => {
      const plan = plans.get(organization.planId);
      const logoKey = organization.logoKey;
      const logoVersion = logoKey?.slice(logoKey.lastIndexOf("/") + 1, logoKey.lastIndexOf("."));
      return {
        id: organization.id,
        title: organization.title,
        subdomain: organization.subdomain,
        logo: logoKey
          ? `${this.deps.publicUrl}/api/organizations/${organization.id}/logo/?v=${logoVersion}`
          : null,
        role,
        user_limit: plan ? effectiveLimits(plan, organization.limitOverrides).userLimit : 0,
        users_count: seats.get(organization.id) ?? 0,
        plan: { id: organization.planId, code: plan?.code ?? "", title: plan?.title ?? "" },
        created_at: organization.createdAt.toISOString(),
        sdk_key: can({ role }, "organization:view-sdk-key") ? organization.sdkKey : null,
      };
    });
  }
}
