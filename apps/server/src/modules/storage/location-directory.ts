import type { SecretBox } from "../../platform/crypto/secret-box.ts";
import type { Database } from "../../platform/db/client.ts";
import { publicOnlyLookup } from "../../platform/net/outbound-target.ts";
import { createDriver } from "../../platform/storage/create-storage.ts";
import { ProxyLinks } from "../../platform/storage/proxy-links.ts";
import type { UrlSigner } from "../../platform/storage/signed-url.ts";
import type { StorageDriver } from "../../platform/storage/storage-driver.ts";
import type { GcsServiceAccount, StorageSettings } from "../../platform/storage/storage-settings.ts";
import { findLocation, type LocationRow } from "./storage.repo.ts";

/** What a location row shows of an S3-compatible bucket (the secret is sealed apart). */
export interface S3Shown {
  endpoint: string;
  region: string;
  bucket: string;
  prefix: string;
  forcePathStyle: boolean;
  accessKeyId: string;
}

export interface GcsShown {
  bucket: string;
  prefix: string;
  projectId: string;
  clientEmail: string;
}

export interface LocationDirectoryDeps {
  db: Database;
  box: SecretBox;
  signer: UrlSigner;
  publicUrl: string;
  proxyDownloads: boolean;
  allowPrivateTargets: boolean;
  /** Where this instance reaches Google Cloud Storage (unset: Google itself). */
  gcsApiEndpoint?: string;
}

/**
 * Drivers for organization storage locations. A location row never changes, so each process
 * keeps one driver per row it has used; there is nothing to invalidate across processes.
 */
export class LocationDirectory {
  private readonly drivers = new Map<number, Promise<StorageDriver>>();

  constructor(private readonly deps: LocationDirectoryDeps) {}

  driverOf(location: number): Promise<StorageDriver> {
    let driver = this.drivers.get(location);
    if (!driver) {
      driver = this.load(location);
      driver.catch(() => this.drivers.delete(location));
      this.drivers.set(location, driver);
    }
    return driver;
  }

  private async load(location: number): Promise<StorageDriver> {
    const row = await findLocation(this.deps.db, location);
    if (!row) throw new Error(`storage location ${location} does not exist`);
    return this.driverFor(this.settingsOf(row), location);
  }

  /** A driver for settings being tried (the probe) or saved as `location`. */
  driverFor(settings: StorageSettings, location: number | null): Promise<StorageDriver> {
    return createDriver(settings, {
      links: new ProxyLinks(this.deps.signer, this.deps.publicUrl, location),
      proxyDownloads: this.deps.proxyDownloads,
      lookup: publicOnlyLookup(this.deps.allowPrivateTargets),
    });
  }

  settingsOf(row: Pick<LocationRow, "kind" | "settings" | "sealedSecret">): StorageSettings {
    const secret = this.deps.box.open(row.sealedSecret);
    if (row.kind === "gcs") {
      const shown = row.settings as GcsShown;
      return this.gcsSettings(shown, JSON.parse(secret) as GcsServiceAccount);
    }
    const shown = row.settings as S3Shown;
    return { kind: "s3", ...shown, secretAccessKey: secret };
  }

  gcsSettings(shown: Pick<GcsShown, "bucket" | "prefix">, credentials: GcsServiceAccount): StorageSettings {
    return {
      kind: "gcs",
      bucket: shown.bucket,
      prefix: shown.prefix,
      credentials,
      ...(this.deps.gcsApiEndpoint ? { apiEndpoint: this.deps.gcsApiEndpoint } : {}),
    };
  }
}
