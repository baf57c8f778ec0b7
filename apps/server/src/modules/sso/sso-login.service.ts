import { randomBytes } from "node:crypto";
import type { SsoCheck } from "@tarmac/contracts";
import { AppError } from "../../http/errors.ts";
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
  assertionIdOf,
  personOfProfile,
  type SamlConnectionSettings,
  samlRequestMaxAgeMs,
  samlServiceProvider,
} from "./saml-client.ts";
import {
  claimAssertion,
  findConnection,
  findRequireSso,
  insertLoginState,
  listConnectionsForDomain,
  listEnabledConnections,
  type SsoConnectionRow,
  type SsoKind,
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

/** How long a provider's discovered configuration is reused. */
const discoveryCacheMs = 10 * 60 * 1000;

export class SsoLoginService {
  private readonly discovered = new Map<
    string,
    { config: ReturnType<typeof discoverProvider>; until: number }
  >();

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
    const connections = organization ? await listEnabledConnections(this.deps.db, organization.id) : [];
    // OpenID Connect when the organization has it, else its SAML provider.
    const connection = connections.find((row) => row.kind === "oidc") ?? connections[0];
    if (!organization || !connection) throw new SsoLoginError("unknown_organization");
    if (connection.kind !== "oidc") return this.startSaml(connection, next);
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
    if (pending?.kind !== "oidc") throw new SsoLoginError("expired");
    const connection = await findConnection(this.deps.db, pending.organizationId, "oidc");
    if (!connection?.enabled) throw new SsoLoginError("unknown_organization");
    let person: Awaited<ReturnType<typeof finishAuthorization>>;
    try {
      person = await finishAuthorization(await this.configOf(connection), callbackUrl, pending);
    } catch {
      throw new SsoLoginError("provider");
    }
    if (!person.emailVerified) throw new SsoLoginError("no_email");
    return this.admit(connection, person, pending.nextPath);
  }

  private async startSaml(connection: SsoConnectionRow, next: string | undefined): Promise<URL> {
    const state = randomBytes(24).toString("base64url");
    await insertLoginState(this.deps.db, {
      state,
      organizationId: connection.organizationId,
      kind: connection.kind,
      nonce: "",
      codeVerifier: "",
      nextPath: safeNextPath(next),
      expiresAt: new Date(Date.now() + loginStateSeconds * 1000),
    });
    return new URL(await this.samlOf(connection).getAuthorizeUrlAsync(state, undefined, {}));
  }

  /**
   * Finishes a SAML sign-in posted to the organization's ACS: the answer must be to a request
   * this instance or another one sent (InResponseTo), signed, for this audience, fresh, and its
   * assertion never used before.
   */
  async finishSaml(organizationId: number, form: { SAMLResponse?: string; RelayState?: string }) {
    const pending = form.RelayState ? await takeLoginState(this.deps.db, form.RelayState) : null;
    if (!pending || pending.organizationId !== organizationId || pending.kind === "oidc") {
      throw new SsoLoginError("expired");
    }
    const connection = await findConnection(this.deps.db, organizationId, pending.kind as SsoKind);
    if (!connection?.enabled) throw new SsoLoginError("unknown_organization");
    let profile: Record<string, unknown>;
    let assertionXml = "";
    try {
      const result = await this.samlOf(connection).validatePostResponseAsync({
        SAMLResponse: form.SAMLResponse ?? "",
      });
      if (!result.profile) throw new Error("no profile");
      profile = result.profile as unknown as Record<string, unknown>;
      assertionXml = result.profile.getAssertionXml?.() ?? "";
    } catch {
      throw new SsoLoginError("provider");
    }
    const assertionId = assertionIdOf(assertionXml);
    if (
      !assertionId ||
      !(await claimAssertion(this.deps.db, assertionId, new Date(Date.now() + samlRequestMaxAgeMs * 2)))
    ) {
      throw new SsoLoginError("provider");
    }
    return this.admit(connection, personOfProfile(profile), pending.nextPath);
  }

  /**
   * Lets a person the provider vouched for in: the account (made on the first sign-in, names
   * kept up to date), the membership (the default role on the first sign-in), a session.
   */
  private async admit(
    connection: SsoConnectionRow,
    person: { email: string; firstName: string; lastName: string },
    nextPath: string,
  ): Promise<{ token: string; expiresAt: Date; nextPath: string }> {
    if (!person.email) throw new SsoLoginError("no_email");
    const domain = person.email.slice(person.email.lastIndexOf("@") + 1);
    if (connection.allowedDomains.length > 0 && !connection.allowedDomains.includes(domain)) {
      throw new SsoLoginError("domain");
    }
    const organizationId = connection.organizationId;
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
      const member = await this.deps.membership.findMemberByUser(organizationId, user.id, tx);
      if (!member) {
        await this.deps.membership.addMember(
          { organizationId, userId: user.id, role: connection.defaultRole },
          tx,
        );
      }
      return user.id;
    });
    const session = await this.deps.tokens.issueSession(userId, new Date(), this.deps.db, {
      ssoOrganizationId: organizationId,
    });
    return { ...session, nextPath };
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

  /** The SP metadata of the organization's SAML connection (signing certificate included when set). */
  async samlMetadata(organizationId: number): Promise<string> {
    const connections = await listEnabledConnections(this.deps.db, organizationId);
    const connection = connections.find((row) => row.kind !== "oidc");
    if (!connection) throw AppError.notFound();
    const settings = connection.settings as SamlConnectionSettings;
    return this.samlOf(connection).generateServiceProviderMetadata(null, settings.spCertificate);
  }

  private samlOf(connection: SsoConnectionRow) {
    return samlServiceProvider(this.deps.db, {
      publicUrl: this.deps.publicUrl,
      organizationId: connection.organizationId,
      settings: connection.settings as SamlConnectionSettings,
      spPrivateKey: connection.secretSealed ? this.deps.box.open(connection.secretSealed) : null,
    });
  }

  /**
   * The provider's discovered configuration, kept per connection revision for a while: a sign-in
   * starts and finishes with it, and discovery is an HTTP round trip to the provider. A saved
   * change makes a new revision, so no process keeps using old settings.
   */
  private configOf(connection: SsoConnectionRow) {
    const key = `${connection.organizationId}:${connection.revision}`;
    const cached = this.discovered.get(key);
    if (cached && cached.until > Date.now()) return cached.config;
    const settings = connection.settings as OidcConnectionSettings;
    const config = discoverProvider(
      {
        issuer: settings.issuer,
        clientId: settings.clientId,
        clientSecret: connection.secretSealed ? this.deps.box.open(connection.secretSealed) : "",
      },
      this.deps.allowPrivateTargets,
    );
    for (const old of this.discovered.keys()) {
      if (old.startsWith(`${connection.organizationId}:`)) this.discovered.delete(old);
    }
    this.discovered.set(key, { config, until: Date.now() + discoveryCacheMs });
    // A failed discovery is not kept: the next sign-in asks again.
    config.catch(() => this.discovered.delete(key));
    return config;
  }
}
