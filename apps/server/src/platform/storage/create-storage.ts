import type { LookupFunction } from "node:net";
import type { Config } from "../../config.ts";
import { LocalStorageDriver } from "./local-driver.ts";
import { ProxyLinks } from "./proxy-links.ts";
import { RoutedStorage } from "./routed-storage.ts";
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

/** A driver for one storage location. Drivers hold no state that matters between requests. */
export function createDriver(settings: StorageSettings, context: DriverContext): StorageDriver {
  switch (settings.kind) {
    case "local":
      return new LocalStorageDriver(settings.dir, context.links);
    default:
      throw new Error(`storage driver ${settings.kind} is not available`);
  }
}

/** The instance's storage settings, from the environment (checked by loadConfig). */
export function instanceStorageSettings(config: Config): StorageSettings {
  return { kind: "local", dir: config.STORAGE_LOCAL_DIR };
}

export function createStorage(config: Config): { storage: RoutedStorage; signer: UrlSigner } {
  const signer = new UrlSigner(config.SECRET_KEY);
  const links = new ProxyLinks(signer, config.PUBLIC_URL, null);
  const instance = createDriver(instanceStorageSettings(config), { links, proxyDownloads: true });
  return { storage: new RoutedStorage(instance), signer };
}
