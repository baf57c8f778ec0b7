import { randomBytes } from "node:crypto";
import { AppError } from "../../http/errors.ts";
import { enforceRateLimit } from "../../http/throttle/throttle.ts";
import type { SecretBox } from "../../platform/crypto/secret-box.ts";
import type { Database } from "../../platform/db/client.ts";
import type { OrganizationService } from "../organization/organization.service.ts";
import { discoverProvider, finishAuthorization, startAuthorization } from "./oidc-provider-client.ts";
import { type OidcConnectionSettings, oidcRedirectUri } from "./oidc-settings.service.ts";
import { checkSamlAnswer, screenSamlResponse } from "./saml-answer.ts";
import {
  assertionIdOf,
  authnRequestIdOf,
  personOfProfile,
  type SamlConnectionSettings,
  samlEndpoints,
  samlRequestMaxAgeMs,
  samlServiceProvider,
} from "./saml-client.ts";
import {
  claimAssertion,
  findConnection,
  insertLoginState,
  listEnabledConnections,
  type SsoConnectionRow,
  type SsoKind,
  takeLoginState,
} from "./sso.repo.ts";
import type { SsoAdmission, SsoOutcome } from "./sso-admission.service.ts";
import { SsoLoginError } from "./sso-login-error.ts";

export { SsoLoginError } from "./sso-login-error.ts";

/** How long a person may take at the identity provider. */
const loginStateSeconds = 10 * 60;

/**
 * Sign-ins one client address may start, and answers it may post, per minute: far above a
 * person's, far below a flood (each start keeps a row; each answer is parsed XML).
 */
export const ssoRequestsPerMinute = 30;

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
      organizations: OrganizationService;
      admission: SsoAdmission;
      publicUrl: string;
      allowPrivateTargets: boolean;
    },
  ) {}

  /** 429 once a client address starts or answers more sign-ins than a person would. */
  async throttle(kind: "start" | "answer", clientAddress: string): Promise<void> {
    await enforceRateLimit(this.deps.db, `sso-${kind}:${clientAddress}`, ssoRequestsPerMinute, 60_000);
  }

  /**
   * Where the browser goes to sign in to the organization named by its subdomain; with
   * `linkUserId`, to link that signed-in person's account instead (see SsoLinksService).
   */
  async start(
    subdomain: string,
    options: { next?: string; loginHint?: string; clientAddress: string; linkUserId?: number },
  ): Promise<URL> {
    await this.throttle("start", options.clientAddress);
    const next = options.next;
    const loginHint = options.loginHint;
    const linkUserId = options.linkUserId ?? null;
    const organization = await this.deps.organizations.findBySubdomain(subdomain);
    const connections = organization ? await listEnabledConnections(this.deps.db, organization.id) : [];
    // OpenID Connect when the organization has it, else its SAML provider.
    const connection = connections.find((row) => row.kind === "oidc") ?? connections[0];
    if (!organization || !connection) throw new SsoLoginError("unknown_organization");
    if (connection.kind !== "oidc") return this.startSaml(connection, next, linkUserId);
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
      linkUserId,
      expiresAt: new Date(Date.now() + loginStateSeconds * 1000),
    });
    return started.url;
  }

  /** Finishes an OpenID Connect sign-in; what follows is SsoAdmission's decision. */
  async finish(callbackUrl: URL): Promise<SsoOutcome> {
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
    return this.deps.admission.admit(connection, person, pending);
  }

  /** Keeps the AuthnRequest's ID with the sign-in: the answer must be to this request, not any. */
  private async startSaml(
    connection: SsoConnectionRow,
    next: string | undefined,
    linkUserId: number | null,
  ): Promise<URL> {
    const state = randomBytes(24).toString("base64url");
    const url = new URL(await this.samlOf(connection).getAuthorizeUrlAsync(state, undefined, {}));
    await insertLoginState(this.deps.db, {
      state,
      organizationId: connection.organizationId,
      kind: connection.kind,
      nonce: authnRequestIdOf(url),
      codeVerifier: "",
      nextPath: safeNextPath(next),
      linkUserId,
      expiresAt: new Date(Date.now() + loginStateSeconds * 1000),
    });
    return url;
  }

  /**
   * Finishes a SAML sign-in posted to the organization's ACS: the answer must be screened (size,
   * depth, no document type), signed, for this audience, fresh, from the provider's issuer, to
   * this ACS (Destination and Recipient), to this sign-in's own request (InResponseTo), and its
   * assertion never used before.
   */
  async finishSaml(
    organizationId: number,
    form: { SAMLResponse?: string; RelayState?: string },
    clientAddress: string,
  ): Promise<SsoOutcome> {
    // The screen first: it costs a regular expression pass, the throttle a database write, and a
    // flood of hostile posts must not cost everyone else the database.
    if (screenSamlResponse(form.SAMLResponse ?? "") !== null) throw new SsoLoginError("provider");
    await this.throttle("answer", clientAddress);
    const pending = form.RelayState ? await takeLoginState(this.deps.db, form.RelayState) : null;
    if (!pending || pending.organizationId !== organizationId || pending.kind === "oidc") {
      throw new SsoLoginError("expired");
    }
    const connection = await findConnection(this.deps.db, organizationId, pending.kind as SsoKind);
    if (!connection?.enabled) throw new SsoLoginError("unknown_organization");
    let profile: Record<string, unknown>;
    let assertionXml = "";
    let responseXml = "";
    try {
      const result = await this.samlOf(connection).validatePostResponseAsync({
        SAMLResponse: form.SAMLResponse ?? "",
      });
      if (!result.profile) throw new Error("no profile");
      profile = result.profile as unknown as Record<string, unknown>;
      assertionXml = result.profile.getAssertionXml?.() ?? "";
      responseXml = result.profile.getSamlResponseXml?.() ?? "";
    } catch {
      throw new SsoLoginError("provider");
    }
    const wrong = checkSamlAnswer(
      { assertion: assertionXml, response: responseXml },
      {
        acsUrl: samlEndpoints(this.deps.publicUrl, organizationId).acsUrl,
        idpEntityId: (connection.settings as SamlConnectionSettings).entityId,
        requestId: pending.nonce,
      },
    );
    if (wrong !== null) throw new SsoLoginError("provider");
    const assertionId = assertionIdOf(assertionXml);
    if (
      !assertionId ||
      !(await claimAssertion(this.deps.db, assertionId, new Date(Date.now() + samlRequestMaxAgeMs * 2)))
    ) {
      throw new SsoLoginError("provider");
    }
    return this.deps.admission.admit(connection, personOfProfile(profile), pending);
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
