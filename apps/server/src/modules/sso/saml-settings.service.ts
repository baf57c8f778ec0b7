import { createPrivateKey, X509Certificate } from "node:crypto";
import type { SamlKind, SamlSettings, SamlSettingsFields } from "@tarmac/contracts";
import { AppError } from "../../http/errors.ts";
import type { SecretBox } from "../../platform/crypto/secret-box.ts";
import type { Database } from "../../platform/db/client.ts";
import { guardedFetch } from "../../platform/net/guarded-fetch.ts";
import { describeNetworkFailure } from "../../platform/net/network-errors.ts";
import type { MembershipService } from "../organization/membership.service.ts";
import type { OrganizationService } from "../organization/organization.service.ts";
import { type SamlConnectionSettings, samlEndpoints } from "./saml-client.ts";
import { MetadataError, readIdpMetadata } from "./saml-metadata.ts";
import { can, type SsoAction } from "./sso.policy.ts";
import { findConnection, findRequireSso, saveConnection, saveRequireSso } from "./sso.repo.ts";

/** Metadata documents are a few kilobytes; a megabyte is plenty. */
export const maxMetadataBytes = 1024 * 1024;

/** Files of the multipart PUT: an empty one clears the SP certificate or key (spec §5). */
export interface SamlFiles {
  metadata?: Buffer;
  certificate?: Buffer;
  privateKey?: Buffer;
}

/** `GET/PUT /api/orgs-sso-{okta|google|entra|custom}/{id}/`: a SAML identity provider. */
export class SamlSettingsService {
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

  async get(actorUserId: number, organizationId: number, kind: SamlKind): Promise<SamlSettings> {
    await this.authorize(actorUserId, organizationId, "sso:read");
    return this.present(organizationId, kind);
  }

  async put(
    actorUserId: number,
    organizationId: number,
    kind: SamlKind,
    fields: SamlSettingsFields,
    files: SamlFiles,
  ): Promise<SamlSettings> {
    await this.authorize(actorUserId, organizationId, "sso:update");
    const saved = await findConnection(this.deps.db, organizationId, kind);
    const before = saved?.settings as SamlConnectionSettings | undefined;
    const metadataXml = files.metadata?.length
      ? files.metadata.toString("utf8")
      : fields.metadata_url
        ? await this.download(fields.metadata_url)
        : null;
    let idp: Pick<SamlConnectionSettings, "entityId" | "ssoUrl" | "certificates" | "certificatesExpire">;
    if (metadataXml) {
      try {
        idp = await readIdpMetadata(metadataXml);
      } catch (error) {
        if (error instanceof MetadataError) throw AppError.validation({ metadata: [error.message] });
        throw error;
      }
    } else if (before) {
      idp = before;
    } else {
      throw AppError.validation({ metadata: ["Upload the identity provider's metadata or give its URL."] });
    }
    const spCertificate = this.certificate(files.certificate, before?.spCertificate ?? null);
    const keySealed = this.privateKey(files.privateKey, saved?.secretSealed ?? null);
    if (Boolean(spCertificate) !== Boolean(keySealed)) {
      throw AppError.validation({
        certificate_file: ["Give the signing certificate and its private key together."],
      });
    }
    await this.deps.db.transaction(async (tx) => {
      await saveConnection(tx, {
        organizationId,
        kind,
        enabled: fields.enabled,
        defaultRole: fields.default_role,
        allowedDomains: [...new Set(fields.allowed_domains)],
        settings: {
          ...idp,
          metadataUrl: fields.metadata_url,
          spCertificate,
        } satisfies SamlConnectionSettings,
        secretSealed: keySealed,
      });
      await saveRequireSso(tx, organizationId, fields.require_sso);
    });
    return this.present(organizationId, kind);
  }

  /** Fetches metadata from the IdP: public https only (unless private targets are allowed), small, no redirects. */
  private async download(url: string): Promise<string> {
    const refuse = (message: string) => AppError.validation({ metadata_url: [message] });
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw refuse("Enter a valid URL.");
    }
    if (parsed.protocol !== "https:" && !(this.deps.allowPrivateTargets && parsed.protocol === "http:")) {
      throw refuse("Enter an https:// URL.");
    }
    try {
      const response = await guardedFetch(
        parsed,
        {},
        { allowPrivateTargets: this.deps.allowPrivateTargets, timeoutMs: 10_000, maxBytes: maxMetadataBytes },
      );
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return await response.text();
    } catch (error) {
      const reason = describeNetworkFailure(error) ?? (error as Error).message.split("\n")[0];
      throw refuse(`Could not read the metadata: ${reason}`);
    }
  }

  /** A new certificate (checked), an empty file (cleared), or the saved one. */
  private certificate(file: Buffer | undefined, saved: string | null): string | null {
    if (file === undefined) return saved;
    if (file.length === 0) return null;
    const text = file.toString("utf8");
    try {
      const certificate = new X509Certificate(text);
      if (new Date(certificate.validTo).getTime() <= Date.now()) {
        throw AppError.validation({ certificate_file: ["This certificate has expired."] });
      }
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw AppError.validation({ certificate_file: ["Upload a PEM certificate."] });
    }
    return text;
  }

  /** A new private key (checked, then sealed), an empty file (cleared), or the saved one. */
  private privateKey(file: Buffer | undefined, savedSealed: string | null): string | null {
    if (file === undefined) return savedSealed;
    if (file.length === 0) return null;
    const text = file.toString("utf8");
    try {
      createPrivateKey(text);
    } catch {
      throw AppError.validation({ private_key_file: ["Upload an unencrypted PEM private key."] });
    }
    return this.deps.box.seal(text);
  }

  private async present(organizationId: number, kind: SamlKind): Promise<SamlSettings> {
    const row = await findConnection(this.deps.db, organizationId, kind);
    const settings = row?.settings as SamlConnectionSettings | undefined;
    const endpoints = samlEndpoints(this.deps.publicUrl, organizationId);
    const subdomain =
      (await this.deps.organizations.subdomainsOf([organizationId])).get(organizationId) ?? "";
    return {
      kind,
      configured: row !== null,
      enabled: row?.enabled ?? false,
      idp_entity_id: settings?.entityId ?? "",
      idp_sso_url: settings?.ssoUrl ?? "",
      idp_certificate_expires: settings?.certificatesExpire ?? null,
      metadata_url: settings?.metadataUrl ?? "",
      sp_certificate_set: Boolean(settings?.spCertificate),
      sp_private_key_set: Boolean(row?.secretSealed),
      default_role: row?.defaultRole ?? 3,
      allowed_domains: row?.allowedDomains ?? [],
      require_sso: await findRequireSso(this.deps.db, organizationId),
      sp_entity_id: endpoints.entityId,
      acs_url: endpoints.acsUrl,
      sp_metadata_url: endpoints.metadataUrl,
      login_url: `${this.deps.publicUrl}/login-custom-client?org=${encodeURIComponent(subdomain)}`,
      updated_at: row ? row.updatedAt.toISOString() : null,
    };
  }
}
