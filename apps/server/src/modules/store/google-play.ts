import { androidpublisher, type androidpublisher_v3 } from "@googleapis/androidpublisher";
import { JWT } from "google-auth-library";
import { guardedFetch } from "../../platform/net/guarded-fetch.ts";
import { isRetryableStatus, StoreError, type StoreHttpOptions, storeMessageOf } from "./store-http.ts";

/** Where google-auth-library sends its token requests; moved to GOOGLE_OAUTH_TOKEN_URL. */
const defaultTokenUrl = "https://oauth2.googleapis.com/token";
const scope = "https://www.googleapis.com/auth/androidpublisher";

export interface ServiceAccount {
  client_email: string;
  private_key: string;
}

/** Reads a service-account JSON key file; anything else is refused with the reason. */
export function readServiceAccount(text: string): ServiceAccount {
  let parsed: { type?: unknown; client_email?: unknown; private_key?: unknown };
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new StoreError("The key file is not JSON (download the service account's JSON key).", false);
  }
  if (parsed?.type !== "service_account") {
    throw new StoreError(
      'The key file is not a service-account key ("type" must be "service_account").',
      false,
    );
  }
  if (typeof parsed.client_email !== "string" || typeof parsed.private_key !== "string") {
    throw new StoreError("The key file lacks client_email or private_key.", false);
  }
  return { client_email: parsed.client_email, private_key: parsed.private_key };
}

export interface GooglePlayUrls {
  tokenUrl: string;
  apiUrl: string;
}

/** A failed call of the generated client, as the store said it. */
function storeErrorOf(error: unknown, what: string): StoreError {
  if (error instanceof StoreError) return error;
  const failure = error as {
    status?: number;
    response?: { status?: number; data?: unknown };
    message?: string;
  };
  const status = failure.response?.status ?? failure.status ?? null;
  const data = failure.response?.data ?? null;
  const said = status
    ? storeMessageOf(data, typeof data === "string" ? data : "", status)
    : (failure.message ?? String(error));
  return new StoreError(`${what}: ${said}`, status === null || isRetryableStatus(status), status);
}

/**
 * The Play Developer API's edits as a publish needs them: the service account's JWT is traded
 * for an access token (google-auth-library), and every request, the token's included, goes
 * through the guarded client to the configured hosts.
 */
export class GooglePlayClient {
  readonly auth: JWT;
  private readonly api: androidpublisher_v3.Androidpublisher;
  private readonly rootUrl: string;

  constructor(
    account: ServiceAccount,
    urls: GooglePlayUrls,
    readonly http: StoreHttpOptions,
  ) {
    this.rootUrl = `${urls.apiUrl.replace(/\/+$/, "")}/`;
    const fetchImplementation = ((input: string | URL, init: RequestInit = {}) => {
      const target = String(input) === defaultTokenUrl ? urls.tokenUrl : String(input);
      return guardedFetch(
        target,
        {
          method: init.method ?? "GET",
          headers: init.headers as Record<string, string>,
          body: (init.body ?? null) as string | null,
        },
        {
          allowPrivateTargets: http.allowPrivateTargets,
          timeoutMs: http.timeoutMs ?? 120_000,
          maxBytes: 8 * 1024 * 1024,
        },
      );
    }) as typeof fetch;
    this.auth = new JWT({
      email: account.client_email,
      key: account.private_key,
      scopes: [scope],
      transporterOptions: { fetchImplementation },
    });
    this.api = androidpublisher({ version: "v3", auth: this.auth, rootUrl: this.rootUrl });
  }

  private async run<T>(what: string, call: () => Promise<{ data: T }>): Promise<T> {
    try {
      return (await call()).data;
    } catch (error) {
      throw storeErrorOf(error, what);
    }
  }

  /** A token is obtained: the key is real and the service account is enabled. */
  async accessToken(): Promise<string> {
    try {
      const { token } = await this.auth.getAccessToken();
      if (!token) throw new StoreError("Google issued no access token.", false);
      return token;
    } catch (error) {
      throw storeErrorOf(error, "Google refused the service account");
    }
  }

  async insertEdit(packageName: string): Promise<string> {
    const edit = await this.run("Opening an edit", () =>
      this.api.edits.insert({ packageName, requestBody: {} }, { rootUrl: this.rootUrl }),
    );
    if (!edit.id) throw new StoreError("Google Play opened an edit without an id.", true);
    return edit.id;
  }

  async deleteEdit(packageName: string, editId: string): Promise<void> {
    await this.run("Closing the edit", () =>
      this.api.edits.delete({ packageName, editId }, { rootUrl: this.rootUrl }),
    );
  }

  /** The highest version code of the app's bundles, or null when it has none. */
  async latestVersionCode(packageName: string, editId: string): Promise<number | null> {
    const listed = await this.run("Reading the app's bundles", () =>
      this.api.edits.bundles.list({ packageName, editId }, { rootUrl: this.rootUrl }),
    );
    const codes = (listed.bundles ?? []).map((bundle) => bundle.versionCode ?? 0);
    return codes.length ? Math.max(...codes) : null;
  }

  async updateTrack(
    packageName: string,
    editId: string,
    release: { track: string; versionCode: number; rollout: number; language: string; notes: string },
  ): Promise<void> {
    const staged = release.rollout < 100;
    await this.run(`Releasing to the ${release.track} track`, () =>
      this.api.edits.tracks.update(
        {
          packageName,
          editId,
          track: release.track,
          requestBody: {
            track: release.track,
            releases: [
              {
                versionCodes: [String(release.versionCode)],
                status: staged ? "inProgress" : "completed",
                ...(staged ? { userFraction: release.rollout / 100 } : {}),
                ...(release.notes.trim()
                  ? { releaseNotes: [{ language: release.language, text: release.notes.slice(0, 500) }] }
                  : {}),
              },
            ],
          },
        },
        { rootUrl: this.rootUrl },
      ),
    );
  }

  async commitEdit(packageName: string, editId: string): Promise<void> {
    await this.run("Committing the edit", () =>
      this.api.edits.commit({ packageName, editId }, { rootUrl: this.rootUrl }),
    );
  }

  /** The media upload URL of `bundles.upload` for this edit. */
  bundleUploadUrl(packageName: string, editId: string): string {
    return `${this.rootUrl}upload/androidpublisher/v3/applications/${encodeURIComponent(packageName)}/edits/${encodeURIComponent(editId)}/bundles?uploadType=resumable`;
  }
}
