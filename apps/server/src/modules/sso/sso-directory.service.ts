/**
 * Which organization's sign-in speaks for whom: the login page's lookups (`check_sso`) and the
 * password policy of organizations that require single sign-on.
 */
import type { SsoCheck } from "@tarmac/contracts";
import type { Database } from "../../platform/db/client.ts";
import type { MembershipService } from "../organization/membership.service.ts";
import type { OrganizationService } from "../organization/organization.service.ts";
import { roles } from "../organization/roles.ts";
import type { UserService } from "../users/user.service.ts";
import { findRequireSso, listEnabledConnections, type SsoConnectionRow } from "./sso.repo.ts";
import { type DomainClaimsService, domainOfEmail } from "./sso-domains.service.ts";
import { findIdentity } from "./sso-identities.repo.ts";

export class SsoDirectory {
  constructor(
    private readonly deps: {
      db: Database;
      users: UserService;
      membership: MembershipService;
      organizations: OrganizationService;
      domains: DomainClaimsService;
    },
  ) {}

  /** By an e-mail address or its domain: whether that organization signs in with SSO. */
  async checkByValue(value: string): Promise<SsoCheck> {
    const domain = value.trim().toLowerCase().split("@").pop() ?? "";
    // Only a proven domain leads anywhere: a claim alone must not send people to a stranger's provider.
    const owner = domain ? await this.deps.domains.provenOwnerOf(domain) : null;
    const [connection] = owner === null ? [] : await listEnabledConnections(this.deps.db, owner);
    return connection ? this.describe(connection) : { sso: false };
  }

  /** By the organization's subdomain. */
  async checkByName(name: string): Promise<SsoCheck> {
    const organization = await this.deps.organizations.findBySubdomain(name);
    if (!organization) return { sso: false };
    const [connection] = await listEnabledConnections(this.deps.db, organization.id);
    return connection ? this.describe(connection) : { sso: false };
  }

  /**
   * Why a password sign-in is refused: the person belongs (not as owner) to an organization that
   * requires single sign-on and owns the account (its sign-in created it, or it proved the
   * address's domain). An organization's rule never locks out an account it does not own. Null
   * when passwords are fine.
   */
  async passwordRefusal(userId: number): Promise<string | null> {
    const user = await this.deps.users.findById(userId);
    if (!user) return null;
    for (const member of await this.deps.membership.listMemberships(userId)) {
      if (member.role === roles.owner) continue;
      if (!(await findRequireSso(this.deps.db, member.organizationId))) continue;
      const identity = await findIdentity(this.deps.db, member.organizationId, userId);
      const owned =
        identity?.origin === "created" ||
        (await this.deps.domains.isProvenBy(member.organizationId, domainOfEmail(user.email)));
      if (owned) {
        const subdomain = (await this.deps.organizations.subdomainsOf([member.organizationId])).get(
          member.organizationId,
        );
        return subdomain ?? "";
      }
    }
    return null;
  }

  private async describe(connection: SsoConnectionRow): Promise<SsoCheck> {
    const subdomain =
      (await this.deps.organizations.subdomainsOf([connection.organizationId])).get(
        connection.organizationId,
      ) ?? "";
    return {
      sso: true,
      organization: subdomain,
      method: connection.kind === "oidc" ? "oidc" : "saml",
      login_url: `/api/sso/${encodeURIComponent(subdomain)}/start/`,
      required: await findRequireSso(this.deps.db, connection.organizationId),
    };
  }
}
