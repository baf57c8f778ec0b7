import type { Config } from "../../config.ts";
import { LocalStorageDriver } from "./local-driver.ts";
import { UrlSigner } from "./signed-url.ts";
import type { StorageDriver } from "./storage-driver.ts";

export function createStorage(config: Config): { storage: StorageDriver; signer: UrlSigner } {
  const signer = new UrlSigner(config.SECRET_KEY);
  switch (config.STORAGE_DRIVER) {
    case "local":
      return { storage: new LocalStorageDriver(config.STORAGE_LOCAL_DIR, signer, config.PUBLIC_URL), signer };
  }
}
