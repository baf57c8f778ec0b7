import { createPrivateKey, type KeyObject } from "node:crypto";
import { SignJWT } from "jose";
import { jsonOrStoreError, StoreError, type StoreHttpOptions, storeFetch } from "./store-http.ts";

/** Apple accepts tokens that live at most 20 minutes; ours live 15 and are renewed a minute early. */
const tokenLifetimeSeconds = 15 * 60;
const renewBeforeSeconds = 60;

export interface AppStoreConnectKey {
  issuerId: string;
  keyId: string;
  /** The .p8 file's PEM text. */
  privateKey: string;
}

/** One slice of the file to PUT, as `buildUploadFiles` hands them out. */
export interface UploadOperation {
  method: string;
  url: string;
  offset: number;
  length: number;
  requestHeaders: { name: string; value: string }[];
}

export interface BuildUploadState {
  state: string;
  errors: string[];
}

/** Reads a .p8 key; a key that is not an EC P-256 private key is refused with a plain reason. */
export function readP8Key(pem: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: pem, format: "pem" });
  } catch {
    throw new StoreError(
      "The key file is not a PEM private key (the .p8 file from App Store Connect).",
      false,
    );
  }
  if (key.asymmetricKeyType !== "ec" || key.asymmetricKeyDetails?.namedCurve !== "prime256v1") {
    throw new StoreError("The key file is not an App Store Connect API key (an EC P-256 .p8 key).", false);
  }
  return key;
}

type Resource<A = Record<string, unknown>> = { id: string; type: string; attributes?: A };

/**
 * The App Store Connect API calls a TestFlight upload needs: each request signed with a short
 * ES256 token (kid = key id, iss = issuer id, aud = appstoreconnect-v1).
 */
export class AppStoreConnectClient {
  private readonly key: KeyObject;
  private token: { value: string; renewAt: number } | null = null;

  constructor(
    private readonly baseUrl: string,
    private readonly credentials: AppStoreConnectKey,
    private readonly http: StoreHttpOptions,
  ) {
    this.key = readP8Key(credentials.privateKey);
  }

  private async bearer(): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    if (this.token && now < this.token.renewAt) return this.token.value;
    const value = await new SignJWT({})
      .setProtectedHeader({ alg: "ES256", kid: this.credentials.keyId, typ: "JWT" })
      .setIssuer(this.credentials.issuerId)
      .setAudience("appstoreconnect-v1")
      .setIssuedAt(now)
      .setExpirationTime(now + tokenLifetimeSeconds)
      .sign(this.key);
    this.token = { value, renewAt: now + tokenLifetimeSeconds - renewBeforeSeconds };
    return value;
  }

  private async call<T>(method: string, path: string, what: string, body?: unknown): Promise<T> {
    const response = await storeFetch(
      `${this.baseUrl.replace(/\/+$/, "")}${path}`,
      {
        method,
        headers: {
          authorization: `Bearer ${await this.bearer()}`,
          accept: "application/json",
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: body === undefined ? null : JSON.stringify(body),
      },
      this.http,
    );
    return jsonOrStoreError<T>(response, what);
  }

  /** One cheap read that proves the key works. */
  async verify(): Promise<void> {
    await this.call("GET", "/v1/apps?limit=1&fields[apps]=bundleId", "App Store Connect refused the key");
  }

  async findApp(bundleId: string): Promise<{ id: string; name: string } | null> {
    const query = `filter[bundleId]=${encodeURIComponent(bundleId)}&fields[apps]=bundleId,name&limit=1`;
    const found = await this.call<{ data: Resource<{ name?: string; bundleId?: string }>[] }>(
      "GET",
      `/v1/apps?${query}`,
      "Looking up the app",
    );
    const app = found.data.find((entry) => entry.attributes?.bundleId === bundleId);
    return app ? { id: app.id, name: app.attributes?.name ?? bundleId } : null;
  }

  /** The build number of the app's newest build, or null when it has none. */
  async latestBuildNumber(appId: string): Promise<string | null> {
    const found = await this.call<{ data: Resource<{ version?: string }>[] }>(
      "GET",
      `/v1/builds?filter[app]=${encodeURIComponent(appId)}&sort=-uploadedDate&limit=1&fields[builds]=version`,
      "Reading the app's builds",
    );
    return found.data[0]?.attributes?.version ?? null;
  }

  async createBuildUpload(appId: string, version: string, buildNumber: string): Promise<string> {
    const created = await this.call<{ data: Resource }>(
      "POST",
      "/v1/buildUploads",
      "Starting the build upload",
      {
        data: {
          type: "buildUploads",
          attributes: { cfBundleShortVersionString: version, cfBundleVersion: buildNumber, platform: "IOS" },
          relationships: { app: { data: { type: "apps", id: appId } } },
        },
      },
    );
    return created.data.id;
  }

  async createBuildUploadFile(
    buildUploadId: string,
    fileName: string,
    fileSize: number,
  ): Promise<{ id: string; operations: UploadOperation[] }> {
    const created = await this.call<{ data: Resource<{ uploadOperations?: UploadOperation[] }> }>(
      "POST",
      "/v1/buildUploadFiles",
      "Reserving the file upload",
      {
        data: {
          type: "buildUploadFiles",
          attributes: { assetType: "ASSET", fileName, fileSize, uti: "com.apple.ipa" },
          relationships: { buildUpload: { data: { type: "buildUploads", id: buildUploadId } } },
        },
      },
    );
    return { id: created.data.id, operations: created.data.attributes?.uploadOperations ?? [] };
  }

  /** PUTs one slice where the operation says, with the headers it names (no bearer: the URL is signed). */
  async putSlice(operation: UploadOperation, bytes: Buffer): Promise<void> {
    const headers = Object.fromEntries(operation.requestHeaders.map((header) => [header.name, header.value]));
    const response = await storeFetch(
      operation.url,
      { method: operation.method, headers, body: bytes },
      this.http,
    );
    await jsonOrStoreError(
      response,
      `Sending bytes ${operation.offset}–${operation.offset + operation.length - 1}`,
    );
  }

  async markUploaded(fileId: string, md5: string): Promise<void> {
    await this.call(
      "PATCH",
      `/v1/buildUploadFiles/${encodeURIComponent(fileId)}`,
      "Finishing the file upload",
      {
        data: {
          type: "buildUploadFiles",
          id: fileId,
          attributes: { sourceFileChecksums: { file: { hash: md5, algorithm: "MD5" } }, uploaded: true },
        },
      },
    );
  }

  async getBuildUploadState(buildUploadId: string): Promise<BuildUploadState> {
    const found = await this.call<{
      data: Resource<{ state?: { state?: string; errors?: { code?: string; description?: string }[] } }>;
    }>("GET", `/v1/buildUploads/${encodeURIComponent(buildUploadId)}`, "Reading the upload's state");
    const state = found.data.attributes?.state;
    return {
      state: state?.state ?? "PROCESSING",
      errors: (state?.errors ?? []).map((error) =>
        [error.code, error.description].filter(Boolean).join(": "),
      ),
    };
  }

  async findBuild(appId: string, buildNumber: string): Promise<string | null> {
    const found = await this.call<{ data: Resource[] }>(
      "GET",
      `/v1/builds?filter[app]=${encodeURIComponent(appId)}&filter[version]=${encodeURIComponent(buildNumber)}&limit=1`,
      "Finding the processed build",
    );
    return found.data[0]?.id ?? null;
  }

  /** TestFlight's "What to Test" for the build, in English. */
  async setWhatToTest(buildId: string, text: string): Promise<void> {
    await this.call("POST", "/v1/betaBuildLocalizations", "Setting What to Test", {
      data: {
        type: "betaBuildLocalizations",
        attributes: { locale: "en-US", whatsNew: text },
        relationships: { build: { data: { type: "builds", id: buildId } } },
      },
    });
  }

  async addToBetaGroups(buildId: string, groupIds: string[]): Promise<void> {
    await this.call(
      "POST",
      `/v1/builds/${encodeURIComponent(buildId)}/relationships/betaGroups`,
      "Adding the build to beta groups",
      {
        data: groupIds.map((id) => ({ type: "betaGroups", id })),
      },
    );
  }
}
