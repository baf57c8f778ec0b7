/**
 * Where a set of files lives: the instance's storage (from the environment) or an organization's
 * own bucket (from its settings). Secrets are plain here; they are sealed wherever settings rest.
 */
export type StorageSettings = LocalSettings | S3Settings | GcsSettings | AzureSettings;

export interface LocalSettings {
  kind: "local";
  dir: string;
}

/** Any S3-compatible service: AWS S3, MinIO, Cloudflare R2, Wasabi, DigitalOcean Spaces. */
export interface S3Settings {
  kind: "s3";
  /** Empty for AWS itself; the service's URL otherwise. */
  endpoint: string;
  region: string;
  bucket: string;
  /** Prepended to every key ("" or ending in "/"), so one bucket can hold other things too. */
  prefix: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** bucket in the path (MinIO and most self-hosted services) rather than in the host name. */
  forcePathStyle: boolean;
}

/** The service-account key file Google Cloud hands out (the fields the client reads). */
export interface GcsServiceAccount {
  type: "service_account";
  project_id: string;
  private_key_id?: string;
  private_key: string;
  client_email: string;
  token_uri?: string;
}

export interface GcsSettings {
  kind: "gcs";
  bucket: string;
  prefix: string;
  credentials: GcsServiceAccount;
  /** The JSON API's base URL; unset for Google itself (tests point it at a loopback peer). */
  apiEndpoint?: string;
}

export interface AzureSettings {
  kind: "azure";
  connectionString: string;
  container: string;
  prefix: string;
}

/** Joins a settings prefix and a key; prefixes are normalised to "" or "something/". */
export function normalisePrefix(prefix: string): string {
  const trimmed = prefix.trim().replace(/^\/+|\/+$/g, "");
  return trimmed ? `${trimmed}/` : "";
}
