/**
 * A person's side of single sign-on: which organizations' providers may open their account,
 * linking one (from a password session, or by the link mailed when the provider named them),
 * and unlinking. An organization's settings alone never link anyone.
 */
import type { SsoLinkRequest, SsoLinks } from "@tarmac/contracts";
import { AppError } from "../../http/errors.ts";
import { hashToken } from "../../platform/crypto/tokens.ts";
import type { Database } from "../../platform/db/client.ts";
import type { OrganizationService } from "../organization/organization.service.ts";
import type { UserService } from "../users/user.service.ts";
import { listEnabledConnections } from "./sso.repo.ts";
import { type DomainClaimsService, domainOfEmail } from "./sso-domains.service.ts";
import {
  deleteIdentity,
  findIdentity,
  findLinkRequest,
  insertIdentity,
  listIdentitiesOfUser,
  takeLinkRequest,
} from "./sso-identities.repo.ts";
import type { SsoLoginService } from "./sso-login.service.ts";

const invalidLink = () => AppError.notFound("This link is invalid or has expired.");

export class SsoLinksService {
  constructor(
    private readonly deps: {
      db: Database;
      users: UserService;
      organizations: OrganizationService;
      domains: DomainClaimsService;
      logins: SsoLoginService;
    },
  ) {}

  private async describeOrganization(organizationId: number) {
    const names = await this.deps.organizations.namesOf([organizationId]);
    return names.get(organizationId) ?? { id: organizationId, title: "", subdomain: "" };
  }

  /** `GET /api/sso/links/`. */
  async list(userId: number): Promise<SsoLinks> {
    const user = await this.deps.users.findById(userId);
    if (!user) throw AppError.unauthorized();
    const identities = await listIdentitiesOfUser(this.deps.db, userId);
    const names = await this.deps.organizations.namesOf(
      identities.map((identity) => identity.organizationId),
    );
    const linked = new Set(identities.map((identity) => identity.organizationId));
    const owner = await this.deps.domains.provenOwnerOf(domainOfEmail(user.email));
    const offersSignIn =
      owner !== null && !linked.has(owner) && (await listEnabledConnections(this.deps.db, owner)).length > 0;
    return {
      linked: identities.flatMap((identity) => {
        const organization = names.get(identity.organizationId);
        return organization
          ? [{ organization, origin: identity.origin, since: identity.createdAt.toISOString() }]
          : [];
      }),
      linkable:
        offersSignIn && owner !== null ? [{ organization: await this.describeOrganization(owner) }] : [],
    };
  }

  /**
   * `POST /api/sso/links/start/`: where the browser goes to link the signed-in account. Only from
   * a session the account's own password made, and only to the organization that proved the
   * address's domain; the provider must then name this very address.
   */
  async start(
    actor: { userId: number; email: string; ssoOrganizationId: number | null },
    organizationId: number,
    clientAddress: string,
  ): Promise<{ url: string }> {
    if (actor.ssoOrganizationId !== null) {
      throw AppError.forbidden("Link your account from a session you signed in to with your password.");
    }
    if (!(await this.deps.domains.isProvenBy(organizationId, domainOfEmail(actor.email)))) {
      throw AppError.notFound();
    }
    const { subdomain } = await this.describeOrganization(organizationId);
    const url = await this.deps.logins.start(subdomain, {
      next: `/dashboard/profile?sso_linked=${encodeURIComponent(subdomain)}`,
      clientAddress,
      linkUserId: actor.userId,
    });
    return { url: url.toString() };
  }

  /** `DELETE /api/sso/links/{organization}/`: not the only way into an account without a password. */
  async unlink(userId: number, organizationId: number): Promise<void> {
    if (!(await findIdentity(this.deps.db, organizationId, userId))) throw AppError.notFound();
    const user = await this.deps.users.findById(userId);
    if (!user?.passwordHash) {
      throw AppError.badRequest(
        "Your account has no password: this sign-in is your only way in. Choose a password first (Forgot password on the sign-in page).",
      );
    }
    await deleteIdentity(this.deps.db, organizationId, userId);
  }

  /** `GET /api/sso/link-requests/{code}/`: what the mailed link offers. */
  async describeRequest(code: string): Promise<SsoLinkRequest> {
    const request = await findLinkRequest(this.deps.db, hashToken(code), new Date());
    const user = request && (await this.deps.users.findById(request.userId));
    if (!request || !user) throw invalidLink();
    const { title, subdomain } = await this.describeOrganization(request.organizationId);
    return { email: user.email, organization: { title, subdomain } };
  }

  /**
   * `POST /api/sso/link-requests/{code}/`: the mailbox confirms what the provider said. Used
   * once; the organization must still hold the proven domain.
   */
  async confirmRequest(code: string): Promise<{ organization: string; login_url: string }> {
    const request = await takeLinkRequest(this.deps.db, hashToken(code), new Date());
    const user = request && (await this.deps.users.findById(request.userId));
    if (!request || !user) throw invalidLink();
    if (!(await this.deps.domains.isProvenBy(request.organizationId, domainOfEmail(user.email)))) {
      throw invalidLink();
    }
    await insertIdentity(this.deps.db, {
      organizationId: request.organizationId,
      userId: user.id,
      origin: "linked",
    });
    const { subdomain } = await this.describeOrganization(request.organizationId);
    return { organization: subdomain, login_url: `/api/sso/${encodeURIComponent(subdomain)}/start/` };
  }
}
