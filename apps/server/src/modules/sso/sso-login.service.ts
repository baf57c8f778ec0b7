import type { SsoCheck } from "@tarmac/contracts";
import type { SecretBox } from "../../platform/crypto/secret-box.ts";
import type { Database } from "../../platform/db/client.ts";
import type { MembershipService } from "../organization/membership.service.ts";
import type { OrganizationService } from "../organization/organization.service.ts";
import { roles } from "../organization/roles.ts";
import type { TokenService } from "../users/token.service.ts";
import type { UserService } from "../users/user.service.ts";
import { discoverProvider, finishAuthorization, startAuthorization } from "./oidc-provider-client.ts";
import { type OidcConnectionSettings, oidcRedirectUri } from "./oidc-settings.service.ts";
import {
  findConnection,
  findRequireSso,
  insertLoginState,
  listConnectionsForDomain,
  listEnabledConnections,
  type SsoConnectionRow,
  takeLoginState,
} from "./sso.repo.ts";

/** How long a person may take at the identity provider. */
const loginStateSeconds = 10 * 60;

/** Why a sign-in did not finish; the sign-in page shows the matching message. */
export class SsoLoginError extends Error {
  constructor(readonly reason: "unknown_organization" | "expired" | "provider" | "no_email" | "domain") {
    super(reason);
  }
}

/** Only paths of this site are followed after signing in (no open redirect). */
export function safeNextPath(next: string | undefined): string {
  return next && /^\/(?!\/)[^\\\s]*$/.test(next) ? next : "/dashboard";
}

export class SsoLoginService {
  constructor(
    private readonly deps: {
      db: Database;
      box: SecretBox;
      users: UserService;
      tokens: TokenService;
      membership: MembershipService;
      organizations: OrganizationService;
      publicUrl: string;
      allowPrivateTargets: boolean;
    },
  ) {}

  /** Where the browser goes to sign in to the organization named by its subdomain. */
  async start(subdomain: string, next: string | undefined, loginHint?: string): Promise<URL> {
    const organization = await this.deps.organizations.findBySubdomain(subdomain);
    const connection = organization ? await findConnection(this.deps.db, organization.id, "oidc") : null;
    if (!organization || !connection?.enabled) throw new SsoLoginError("unknown_organization");
    const config = await this.configOf(connection);
    const started = await startAuthorization(config, {
      redirectUri: oidcRedirectUri(this.deps.publicUrl),
      scopes: (connection.settings as OidcConnectionSettings).scopes,
      ...(loginHint ? { loginHint } : {}),
    });
    await insertLoginState(this.deps.db, {
      state: started.state,
      organizationId: organization.id,
      kind: "oidc",
      nonce: started.nonce,
      codeVerifier: started.codeVerifier,
      nextPath: safeNextPath(next),
      expiresAt: new Date(Date.now() + loginStateSeconds * 1000),
    });
    return started.url;
  }

  /**
   * Finishes an OpenID Connect sign-in: the person (made on the first sign-in, names kept up to
   * date), their membership (the default role on the first sign-in), a session.
   */
  async finish(callbackUrl: URL): Promise<{ token: string; expiresAt: Date; nextPath: string }> {
    const state = callbackUrl.searchParams.get("state") ?? "";
    const pending = state ? await takeLoginState(this.deps.db, state) : null;
    if (!pending) throw new SsoLoginError("expired");
    const connection = await findConnection(this.deps.db, pending.organizationId, "oidc");
    if (!connection?.enabled) throw new SsoLoginError("unknown_organization");
    let person: Awaited<ReturnType<typeof finishAuthorization>>;
    try {
      person = await finishAuthorization(await this.configOf(connection), callbackUrl, pending);
    } catch {
      throw new SsoLoginError("provider");
    }
    if (!person.email || !person.emailVerified) throw new SsoLoginError("no_email");
    const domain = person.email.slice(person.email.lastIndexOf("@") + 1);
    if (connection.allowedDomains.length > 0 && !connection.allowedDomains.includes(domain)) {
      throw new SsoLoginError("domain");
    }
    const userId = await this.deps.db.transaction(async (tx) => {
      const names = {
        ...(person.firstName ? { firstName: person.firstName } : {}),
        ...(person.lastName ? { lastName: person.lastName } : {}),
      };
      let user = await this.deps.users.findByEmail(person.email, tx);
      if (!user) {
        user = await this.deps.users.create(
          { email: person.email, isActive: true, passwordHash: null, ...names },
          tx,
        );
      } else {
        // The provider vouched for the address: an invited account is now active.
        await this.deps.users.update(user.id, { ...names, isActive: true }, tx);
      }
      const member = await this.deps.membership.findMemberByUser(pending.organizationId, user.id, tx);
      if (!member) {
        await this.deps.membership.addMember(
          { organizationId: pending.organizationId, userId: user.id, role: connection.defaultRole },
          tx,
        );
      }
      return user.id;
    });
    const session = await this.deps.tokens.issueSession(userId, new Date(), this.deps.db, {
      ssoOrganizationId: pending.organizationId,
    });
    return { ...session, nextPath: pending.nextPath };
  }

  /** By an e-mail address or its domain: whether that organization signs in with SSO. */
  async checkByValue(value: string): Promise<SsoCheck> {
    const domain = value.trim().toLowerCase().split("@").pop() ?? "";
    const [connection] = domain ? await listConnectionsForDomain(this.deps.db, domain) : [];
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
   * requires single sign-on. Null when passwords are fine.
   */
  async passwordRefusal(userId: number): Promise<string | null> {
    for (const member of await this.deps.membership.listMemberships(userId)) {
      if (member.role === roles.owner) continue;
      if (await findRequireSso(this.deps.db, member.organizationId)) {
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

  private configOf(connection: SsoConnectionRow) {
    const settings = connection.settings as OidcConnectionSettings;
    return discoverProvider(
      {
        issuer: settings.issuer,
        clientId: settings.clientId,
        clientSecret: connection.secretSealed ? this.deps.box.open(connection.secretSealed) : "",
      },
      this.deps.allowPrivateTargets,
    );
  }
}
