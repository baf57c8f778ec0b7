import type { AppKeystore, KeystoreInput, OrganizationKeystore, SigningCertificate } from "@tarmac/contracts";
import { AppError } from "../../http/errors.ts";
import type { SecretBox } from "../../platform/crypto/secret-box.ts";
import type { Database } from "../../platform/db/client.ts";
import type { ApplicationService } from "../application/application.service.ts";
import type { BuildRecordService } from "../application/build-record.service.ts";
import type { MembershipService } from "../organization/membership.service.ts";
import { canSign, type SigningAction } from "./android-signing.policy.ts";
import { findSigningKey, type SigningKeyRow, saveUploadedKey } from "./android-signing.repo.ts";
import { KeystoreError, openKeystore, summarizeCertificate } from "./lib/keystore.ts";
import { keyValuesOf, type SigningKeyChain, sealKeystore } from "./signing-key-chain.ts";

export interface KeystoreDeps {
  db: Database;
  box: SecretBox;
  membership: MembershipService;
  applications: ApplicationService;
  builds: BuildRecordService;
  keys: SigningKeyChain;
}

const androidAppType = 0;

/** Which field a keystore that did not open points at. */
function keystoreFieldError(error: KeystoreError): AppError {
  const field = {
    bad_file: "keystore_file",
    unsupported: "keystore_file",
    store_password: "store_password",
    alias: "key_alias",
    key_password: "key_password",
  }[error.reason];
  const message = error.message.charAt(0).toUpperCase() + error.message.slice(1);
  return AppError.validation({ [field]: [`${message}.`] });
}

export function certificateOf(row: SigningKeyRow): SigningCertificate {
  return {
    subject: row.certificateSubject,
    issuer: row.certificateIssuer,
    sha256: row.certificateSha256,
    valid_from: row.validFrom.toISOString(),
    valid_until: row.validUntil.toISOString(),
  };
}

function keystoreFields(row: SigningKeyRow | null, warnings: string[] = []) {
  return {
    configured: row !== null,
    file_name: row?.fileName ?? "",
    store_type: (row?.storeType || null) as "JKS" | "PKCS12" | null,
    key_alias: row?.keyAlias ?? "",
    certificate: row ? certificateOf(row) : null,
    updated_at: row?.updatedAt.toISOString() ?? null,
    warnings,
  };
}

/**
 * Keystores an app or an organization brings for signing Android builds: checked when saved
 * (the alias exists, the passwords open it, the key signs), sealed at rest, never sent back.
 */
export class KeystoreService {
  constructor(private readonly deps: KeystoreDeps) {}

  private async appFor(userId: number, appId: number, action: SigningAction) {
    const { app, member, access } = await this.deps.applications.getAccessibleApp(userId, appId, "app:read");
    if (!canSign(member.role, action, access)) throw AppError.forbidden();
    if (app.appType !== androidAppType) {
      throw AppError.validation({ non_field_errors: ["Only Android apps are signed with a keystore."] });
    }
    return app;
  }

  private async authorizeOrganization(userId: number, organizationId: number, action: SigningAction) {
    const member = await this.deps.membership.getMembership(userId, organizationId);
    if (!canSign(member.role, action, { visible: true })) throw AppError.forbidden();
  }

  async getForApp(userId: number, appId: number, warnings: string[] = []): Promise<AppKeystore> {
    const app = await this.appFor(userId, appId, "keystore:read");
    const own = await findSigningKey(this.deps.db, app.organizationId, app.id, "uploaded");
    const { source, row } = await this.deps.keys.currentSource(app.organizationId, app.id);
    return {
      app: app.id,
      ...keystoreFields(own, warnings),
      effective_source: source,
      effective_certificate: row ? certificateOf(row) : null,
      internal_testing_only: source === "generated",
    };
  }

  async putForApp(
    userId: number,
    appId: number,
    input: KeystoreInput,
    file: Buffer | undefined,
    fileName: string,
  ) {
    const app = await this.appFor(userId, appId, "keystore:replace");
    const values = this.check(input, file, fileName, userId);
    const warnings = await this.signerWarnings(
      app.organizationId,
      app.currentVersionId,
      values.certificateSha256,
    );
    await saveUploadedKey(this.deps.db, app.organizationId, app.id, values);
    return this.getForApp(userId, appId, warnings);
  }

  async getForOrganization(userId: number, organizationId: number): Promise<OrganizationKeystore> {
    await this.authorizeOrganization(userId, organizationId, "organization-keystore:read");
    const row = await findSigningKey(this.deps.db, organizationId, null, "uploaded");
    return { organization: organizationId, ...keystoreFields(row) };
  }

  async putForOrganization(
    userId: number,
    organizationId: number,
    input: KeystoreInput,
    file: Buffer | undefined,
    fileName: string,
  ): Promise<OrganizationKeystore> {
    await this.authorizeOrganization(userId, organizationId, "organization-keystore:replace");
    const values = this.check(input, file, fileName, userId);
    const row = await saveUploadedKey(this.deps.db, organizationId, null, values);
    return { organization: organizationId, ...keystoreFields(row) };
  }

  /** Opens the keystore as signing will; any failure is a 400 on the field at fault. */
  private check(input: KeystoreInput, file: Buffer | undefined, fileName: string, userId: number) {
    if (!file || file.length === 0) throw AppError.validation({ keystore_file: ["No file was submitted."] });
    const secret = {
      file,
      storePassword: input.store_password,
      keyAlias: input.key_alias,
      keyPassword: input.key_password,
    };
    let opened: ReturnType<typeof openKeystore>;
    try {
      opened = openKeystore(secret);
    } catch (error) {
      if (error instanceof KeystoreError) throw keystoreFieldError(error);
      throw error;
    }
    const certificate = summarizeCertificate(opened.key.certificates[0] as Buffer);
    if (certificate.validUntil.getTime() < Date.now()) {
      throw AppError.validation({
        keystore_file: [
          `The key's certificate expired on ${certificate.validUntil.toISOString().slice(0, 10)}.`,
        ],
      });
    }
    return {
      sealed: sealKeystore(this.deps.box, secret),
      storeType: opened.type,
      keyAlias: input.key_alias,
      fileName: fileName.slice(0, 255),
      updatedBy: userId,
      ...keyValuesOf(opened.key),
    };
  }

  /** Android installs an update only when it is signed by the same key as the installed build. */
  private async signerWarnings(organizationId: number, currentVersionId: number | null, sha256: string) {
    if (currentVersionId === null) return [];
    const version = await this.deps.builds.findVersion(organizationId, currentVersionId);
    const signing = (
      version?.buildInfo as { signing?: { certificates?: Array<{ sha256?: string }> } } | undefined
    )?.signing;
    const previous = signing?.certificates?.[0]?.sha256;
    if (!previous) return [];
    const plain = sha256.replaceAll(":", "").toLowerCase();
    if (plain === previous.toLowerCase()) return [];
    const shown = previous.toUpperCase().match(/../g)?.join(":") ?? previous;
    return [
      `This key's certificate (SHA-256 ${sha256}) differs from the one that signed the app's current build (${shown}): devices with that build installed will not accept builds signed with this key as updates.`,
    ];
  }
}
