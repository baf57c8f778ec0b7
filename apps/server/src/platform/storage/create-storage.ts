import type { LookupFunction } from "node:net";
import type { Config } from "../../config.ts";
import { LocalStorageDriver } from "./local-driver.ts";
import { ProxyLinks } from "./proxy-links.ts";
import { RoutedStorage, type StorageOperation } from "./routed-storage.ts";
import { UrlSigner } from "./signed-url.ts";
import type { StorageDriver } from "./storage-driver.ts";
import type { StorageSettings } from "./storage-settings.ts";

export interface DriverContext {
  links: ProxyLinks;
  /** Serve downloads through the server (ProxyLinks) instead of presigned bucket URLs. */
  proxyDownloads: boolean;
  /**
   * DNS lookup for connections to a host an organization chose: refuses private addresses at
   * connect time (outbound-target.ts). Unset for the instance's own storage.
   */
  lookup?: LookupFunction;
}

/**
 * A driver for one storage location. Drivers hold no state that matters between requests. The
 * cloud SDKs load only when a location needs them, so a server on the local disk starts without.
 */
export async function createDriver(
  settings: StorageSettings,
  context: DriverContext,
): Promise<StorageDriver> {
  switch (settings.kind) {
    case "local":
      return new LocalStorageDriver(settings.dir, context.links);
    case "s3":
      return new (await import("./s3-driver.ts")).S3StorageDriver(settings, context);
    case "gcs":
      return new (await import("./gcs-driver.ts")).GcsStorageDriver(settings, context);
    case "azure":
      return new (await import("./azure-driver.ts")).AzureStorageDriver(settings, context);
  }
}

/** The instance's storage settings, from the environment (checked by loadConfig). */
export function instanceStorageSettings(config: Config): StorageSettings {
  switch (config.STORAGE_DRIVER) {
    case "local":
      return { kind: "local", dir: config.STORAGE_LOCAL_DIR };
    case "s3":
      return {
        kind: "s3",
        endpoint: config.S3_ENDPOINT ?? "",
        region: config.S3_REGION,
        bucket: config.S3_BUCKET ?? "",
        prefix: config.S3_PREFIX,
        accessKeyId: config.S3_ACCESS_KEY_ID ?? "",
        secretAccessKey: config.S3_SECRET_ACCESS_KEY ?? "",
        forcePathStyle: config.S3_FORCE_PATH_STYLE,
      };
    case "gcs":
      return {
        kind: "gcs",
        bucket: config.GCS_BUCKET ?? "",
        prefix: config.GCS_PREFIX,
        credentials: JSON.parse(config.GCS_CREDENTIALS ?? "{}"),
        ...(config.GCS_API_ENDPOINT ? { apiEndpoint: config.GCS_API_ENDPOINT } : {}),
      };
    case "azure":
      return {
        kind: "azure",
        connectionString: config.AZURE_STORAGE_CONNECTION_STRING ?? "",
        container: config.AZURE_STORAGE_CONTAINER ?? "",
        prefix: config.AZURE_STORAGE_PREFIX,
      };
  }
}

export async function createStorage(
  config: Config,
  onError?: (operation: StorageOperation) => void,
): Promise<{ storage: RoutedStorage; signer: UrlSigner }> {
  const signer = new UrlSigner(config.SECRET_KEY);
  const links = new ProxyLinks(signer, config.PUBLIC_URL, null);
  // The local disk has no URLs of its own: it is always served through the server.
  const proxyDownloads = config.STORAGE_DRIVER === "local" || config.STORAGE_PROXY_DOWNLOADS;
  const instance = await createDriver(instanceStorageSettings(config), { links, proxyDownloads });
  return { storage: new RoutedStorage(instance, onError), signer };
}
