import type { SecretBox } from "../../platform/crypto/secret-box.ts";
import { AppStoreConnectClient } from "./app-store-connect.ts";
import { GooglePlayClient, readServiceAccount } from "./google-play.ts";
import type { DeveloperAccountRow } from "./store.repo.ts";

/** The store hosts (configurable for proxies and tests) and whether they may be private addresses. */
export interface StoreEndpoints {
  appStoreConnectUrl: string;
  googleTokenUrl: string;
  googlePlayUrl: string;
  allowPrivateTargets: boolean;
}

/** Opens a client on a saved account, its key unsealed only for that. */
export class StoreClients {
  constructor(
    private readonly endpoints: StoreEndpoints,
    private readonly box: SecretBox,
  ) {}

  apple(key: { issuerId: string; keyId: string; privateKey: string }): AppStoreConnectClient {
    return new AppStoreConnectClient(this.endpoints.appStoreConnectUrl, key, {
      allowPrivateTargets: this.endpoints.allowPrivateTargets,
    });
  }

  google(serviceAccountJson: string): GooglePlayClient {
    return new GooglePlayClient(
      readServiceAccount(serviceAccountJson),
      { tokenUrl: this.endpoints.googleTokenUrl, apiUrl: this.endpoints.googlePlayUrl },
      { allowPrivateTargets: this.endpoints.allowPrivateTargets },
    );
  }

  appleFor(account: DeveloperAccountRow): AppStoreConnectClient {
    return this.apple({
      issuerId: account.issuerId ?? "",
      keyId: account.keyId ?? "",
      privateKey: this.box.open(account.sealedKey),
    });
  }

  googleFor(account: DeveloperAccountRow): GooglePlayClient {
    return this.google(this.box.open(account.sealedKey));
  }

  seal(text: string): string {
    return this.box.seal(text);
  }
}
