import type { OidcSettings, OidcSettingsInput } from "@tarmac/contracts";
import { AppError } from "../../http/errors.ts";
import type { SecretBox } from "../../platform/crypto/secret-box.ts";
import type { Database } from "../../platform/db/client.ts";
import { describeNetworkFailure } from "../../platform/net/network-errors.ts";
import type { MembershipService } from "../organization/membership.service.ts";
import type { OrganizationService } from "../organization/organization.service.ts";
import { discoverProvider } from "./oidc-provider-client.ts";
import { can, type SsoAction } from "./sso.policy.ts";
import {
  deleteConnection,
  findConnection,
  findRequireSso,
  saveConnection,
  saveRequireSso,
} from "./sso.repo.ts";

export interface OidcConnectionSettings {
  issuer: string;
  clientId: string;
  scopes: string;
}

/** The issuer's own words, in one line, for the person who typed it. */
function providerSaid(error: unknown): string {
  // openid-client wraps what its fetch threw ("something went wrong"): the reason is the cause.
  const network = describeNetworkFailure(error);
  if (network) return network;
  let reason = error;
  while (reason instanceof Error && reason.cause instanceof Error) reason = reason.cause;
  const message = reason instanceof Error ? reason.message : String(reason);
  return message.split("\n")[0]?.slice(0, 300) ?? "";
}

/** `GET/PATCH /api/orgs-oidc/{id}/`, `POST …/clear/`: the organization's OpenID Connect sign-in. */
export class OidcSettingsService {
  constructor(
    private readonly deps: {
      db: Database;
      membership: MembershipService;
      organizations: OrganizationService;
      box: SecretBox;
      publicUrl: string;
      allowPrivateTargets: boolean;
    },
  ) {}

  private async authorize(actorUserId: number, organizationId: number, action: SsoAction) {
    const member = await this.deps.membership.getMembership(actorUserId, organizationId);
    if (!can(member, action)) throw AppError.forbidden();
  }

  async get(actorUserId: number, organizationId: number): Promise<OidcSettings> {
    await this.authorize(actorUserId, organizationId, "sso:read");
    return this.present(organizationId);
  }

  /** Saved only once the issuer's configuration was read (an enabled connection). */
  async patch(actorUserId: number, organizationId: number, input: OidcSettingsInput): Promise<OidcSettings> {
    await this.authorize(actorUserId, organizationId, "sso:update");
    const saved = await findConnection(this.deps.db, organizationId, "oidc");
    const secret = input.client_secret || (saved?.secretSealed ? this.deps.box.open(saved.secretSealed) : "");
    if (!secret) throw AppError.validation({ client_secret: ["This field may not be blank."] });
    const issuer = input.issuer.replace(/\/+$/, "");
    let parsed: URL;
    try {
      parsed = new URL(issuer);
    } catch {
      throw AppError.validation({ issuer: ["Enter a valid URL."] });
    }
    if (parsed.protocol !== "https:" && !(this.deps.allowPrivateTargets && parsed.protocol === "http:")) {
      throw AppError.validation({ issuer: ["Enter an https:// URL."] });
    }
    if (!input.scopes.split(/\s+/).includes("openid")) {
      throw AppError.validation({ scopes: ["The scopes must include openid."] });
    }
    if (input.enabled) {
      try {
        await discoverProvider(
          { issuer, clientId: input.client_id, clientSecret: secret },
          this.deps.allowPrivateTargets,
        );
      } catch (error) {
        throw AppError.validation({
          issuer: [`Could not read the provider's configuration: ${providerSaid(error)}`],
        });
      }
    }
    await this.deps.db.transaction(async (tx) => {
      await saveConnection(tx, {
        organizationId,
        kind: "oidc",
        enabled: input.enabled,
        defaultRole: input.default_role,
        allowedDomains: [...new Set(input.allowed_domains)],
        settings: {
          issuer,
          clientId: input.client_id,
          scopes: input.scopes,
        } satisfies OidcConnectionSettings,
        secretSealed: this.deps.box.seal(secret),
      });
      await saveRequireSso(tx, organizationId, input.require_sso);
    });
    return this.present(organizationId);
  }

  async clear(actorUserId: number, organizationId: number): Promise<OidcSettings> {
    await this.authorize(actorUserId, organizationId, "sso:update");
    await this.deps.db.transaction(async (tx) => {
      await deleteConnection(tx, organizationId, "oidc");
      await saveRequireSso(tx, organizationId, false);
    });
    return this.present(organizationId);
  }

  private async present(organizationId: number): Promise<OidcSettings> {
    const row = await findConnection(this.deps.db, organizationId, "oidc");
    const settings = (row?.settings ?? {}) as Partial<OidcConnectionSettings>;
    const subdomain =
      (await this.deps.organizations.subdomainsOf([organizationId])).get(organizationId) ?? "";
    return {
      configured: row !== null,
      enabled: row?.enabled ?? false,
      issuer: settings.issuer ?? "",
      client_id: settings.clientId ?? "",
      client_secret_set: Boolean(row?.secretSealed),
      scopes: settings.scopes ?? "openid email profile",
      default_role: row?.defaultRole ?? 3,
      allowed_domains: row?.allowedDomains ?? [],
      require_sso: await findRequireSso(this.deps.db, organizationId),
      redirect_uri: oidcRedirectUri(this.deps.publicUrl),
      login_url: `${this.deps.publicUrl}/login-custom-client?org=${encodeURIComponent(subdomain)}`,
      updated_at: row ? row.updatedAt.toISOString() : null,
    };
  }
}

/** One callback for every organization: the state says whose sign-in it finishes. */
export function oidcRedirectUri(publicUrl: string): string {
  return `${publicUrl}/api/sso/oidc/callback/`;
}
