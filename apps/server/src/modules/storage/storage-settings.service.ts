import type { CustomStorage, CustomStorageInput, GoogleCloudStorage, StorageKind } from "@tarmac/contracts";
import { AppError } from "../../http/errors.ts";
import type { SecretBox } from "../../platform/crypto/secret-box.ts";
import type { Database } from "../../platform/db/client.ts";
import type { StorageSettings } from "../../platform/storage/storage-settings.ts";
import { normalisePrefix } from "../../platform/storage/storage-settings.ts";
import type { MembershipService } from "../organization/membership.service.ts";
import type { GcsShown, LocationDirectory, S3Shown } from "./location-directory.ts";
import { can, type StorageAction } from "./storage.policy.ts";
import {
  deactivateLocations,
  findLatestLocation,
  insertActiveLocation,
  type LocationRow,
} from "./storage.repo.ts";
import { checkEndpoint, chooseSecret, parseServiceAccount } from "./storage-input.ts";
import { type ProbeFailure, probeStorage } from "./storage-probe.ts";

export interface StorageSettingsDeps {
  db: Database;
  membership: MembershipService;
  directory: LocationDirectory;
  box: SecretBox;
  allowPrivateTargets: boolean;
}

function probeRefused(failure: ProbeFailure): AppError {
  return AppError.validation({ [failure.field]: [failure.message] });
}

/**
 * The organization's own storage settings (S3-compatible or Google Cloud Storage). Saving proves
 * the bucket works before anything changes; new files then go there, old ones stay readable
 * where they are until moved.
 */
export class StorageSettingsService {
  constructor(private readonly deps: StorageSettingsDeps) {}

  private async authorize(actorUserId: number, organizationId: number, action: StorageAction) {
    const member = await this.deps.membership.getMembership(actorUserId, organizationId);
    if (!can(member, action)) throw AppError.forbidden();
  }

  async getCustom(actorUserId: number, organizationId: number): Promise<CustomStorage> {
    await this.authorize(actorUserId, organizationId, "storage:read");
    return showCustom(await findLatestLocation(this.deps.db, organizationId, "s3"));
  }

  async putCustom(
    actorUserId: number,
    organizationId: number,
    input: CustomStorageInput,
  ): Promise<CustomStorage> {
    await this.authorize(actorUserId, organizationId, "storage:update");
    await checkEndpoint(input.endpoint, this.deps.allowPrivateTargets);
    const previous = await findLatestLocation(this.deps.db, organizationId, "s3");
    const savedSecret = previous ? this.deps.box.open(previous.sealedSecret) : null;
    const shown: S3Shown = {
      endpoint: input.endpoint.replace(/\/+$/, ""),
      region: input.region || "us-east-1",
      bucket: input.bucket,
      prefix: normalisePrefix(input.prefix),
      forcePathStyle: input.path_style,
      accessKeyId: input.access_key_id,
    };
    const secret = chooseSecret(input.secret_access_key, savedSecret);
    const settings: StorageSettings = { kind: "s3", ...shown, secretAccessKey: secret };
    const failure = await probeStorage(await this.deps.directory.driverFor(settings, null), {
      endpoint: "endpoint",
      bucket: "bucket",
      credentials: "access_key_id",
      secret: "secret_access_key",
    });
    if (failure) throw probeRefused(failure);
    const saved = await this.save(organizationId, actorUserId, "s3", shown, secret);
    return showCustom(saved);
  }

  async getGcs(actorUserId: number, organizationId: number): Promise<GoogleCloudStorage> {
    await this.authorize(actorUserId, organizationId, "storage:read");
    return showGcs(await findLatestLocation(this.deps.db, organizationId, "gcs"));
  }

  async putGcs(
    actorUserId: number,
    organizationId: number,
    input: { bucket: string; prefix: string },
    credentialsFile: Buffer | undefined,
  ): Promise<GoogleCloudStorage> {
    await this.authorize(actorUserId, organizationId, "storage:update");
    const previous = await findLatestLocation(this.deps.db, organizationId, "gcs");
    let credentialsJson: string;
    if (credentialsFile) {
      credentialsJson = JSON.stringify(parseServiceAccount(credentialsFile, this.deps.allowPrivateTargets));
    } else if (previous) {
      credentialsJson = this.deps.box.open(previous.sealedSecret);
    } else {
      throw AppError.validation({ gcs_credentials: ["No file was submitted."] });
    }
    const credentials = JSON.parse(credentialsJson);
    const shown: GcsShown = {
      bucket: input.bucket,
      prefix: normalisePrefix(input.prefix),
      projectId: credentials.project_id,
      clientEmail: credentials.client_email,
    };
    const settings = this.deps.directory.gcsSettings(shown, credentials);
    const failure = await probeStorage(await this.deps.directory.driverFor(settings, null), {
      bucket: "bucket",
      credentials: "gcs_credentials",
    });
    if (failure) throw probeRefused(failure);
    return showGcs(await this.save(organizationId, actorUserId, "gcs", shown, credentialsJson));
  }

  /** Back to the instance's storage for new files; files in the bucket stay readable there. */
  async disable(actorUserId: number, organizationId: number): Promise<{ kind: StorageKind }> {
    await this.authorize(actorUserId, organizationId, "storage:update");
    await deactivateLocations(this.deps.db, organizationId);
    return { kind: "instance" };
  }

  private save(
    organizationId: number,
    actorUserId: number,
    kind: "s3" | "gcs",
    shown: S3Shown | GcsShown,
    secret: string,
  ): Promise<LocationRow> {
    return this.deps.db.transaction((tx) =>
      insertActiveLocation(tx, {
        organizationId,
        kind,
        settings: shown,
        sealedSecret: this.deps.box.seal(secret),
        createdBy: actorUserId,
      }),
    );
  }
}

function showCustom(row: LocationRow | null): CustomStorage {
  const shown = (row?.settings ?? {}) as Partial<S3Shown>;
  return {
    enabled: Boolean(row?.active),
    configured: Boolean(row),
    endpoint: shown.endpoint ?? "",
    region: shown.region ?? "",
    bucket: shown.bucket ?? "",
    prefix: shown.prefix ?? "",
    path_style: shown.forcePathStyle ?? false,
    access_key_id: shown.accessKeyId ?? "",
    secret_access_key_set: Boolean(row),
    updated_at: row ? row.createdAt.toISOString() : null,
  };
}

function showGcs(row: LocationRow | null): GoogleCloudStorage {
  const shown = (row?.settings ?? {}) as Partial<GcsShown>;
  return {
    enabled: Boolean(row?.active),
    configured: Boolean(row),
    bucket: shown.bucket ?? "",
    prefix: shown.prefix ?? "",
    project_id: shown.projectId ?? "",
    client_email: shown.clientEmail ?? "",
    gcs_credentials_set: Boolean(row),
    updated_at: row ? row.createdAt.toISOString() : null,
  };
}
