import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { isIP } from "node:net";
import path from "node:path";
import { z } from "zod";
import { isPublicAddress } from "./platform/net/outbound-target.ts";
import { resolveGcsCredentials, storageSettingsProblem } from "./storage-config.ts";

const booleanString = z
  .enum(["true", "false", "1", "0", "yes", "no"])
  .transform((value) => value === "true" || value === "1" || value === "yes");

const roleList = z
  .string()
  .transform((value) =>
    value
      .split(",")
      .map((role) => role.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.enum(["web", "worker"])).min(1, "must name at least one of web, worker"));

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  /** Prometheus's `GET /metrics`, on a listener of its own; 0 turns it off. */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9464),
  METRICS_HOST: z.string().min(1).default("127.0.0.1"),
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
    .optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  STORAGE_DRIVER: z
    .enum(["local", "s3", "gcs", "azure"], {
      message: "unknown storage driver; supported: local, s3, gcs, azure",
    })
    .default("local"),
  STORAGE_LOCAL_DIR: z.string().min(1).optional(),
  S3_ENDPOINT: z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" }).optional(),
  S3_REGION: z.string().min(1).default("us-east-1"),
  S3_BUCKET: z.string().min(1).optional(),
  S3_PREFIX: z.string().default(""),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: booleanString.default(false),
  GCS_BUCKET: z.string().min(1).optional(),
  GCS_PREFIX: z.string().default(""),
  /** The service account's JSON key: a file path, or the JSON itself. */
  GCS_CREDENTIALS: z.string().min(1).optional(),
  GCS_API_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  AZURE_STORAGE_CONNECTION_STRING: z.string().min(1).optional(),
  AZURE_STORAGE_CONTAINER: z.string().min(1).optional(),
  AZURE_STORAGE_PREFIX: z.string().default(""),
  /** Stream downloads through the server instead of handing out presigned bucket URLs. */
  STORAGE_PROXY_DOWNLOADS: booleanString.default(false),
  SIGNED_URL_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(10)
    .max(7 * 24 * 3600)
    .default(900),
  SMTP_HOST: z.string().min(1).optional(),
  SMTP_PORT: z.coerce.number().int().min(1).max(65535).default(587),
  SMTP_SECURE: booleanString.optional(),
  SMTP_USER: z.string().optional(),
  SMTP_PASSWORD: z.string().optional(),
  MAIL_FROM: z.string().min(3).default("Tarmac <no-reply@localhost>"),
  SECRET_KEY: z.string().min(32, "must be at least 32 characters").optional(),
  ROLES: roleList.default(["web", "worker"]),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  COOKIE_DOMAIN: z
    .string()
    .regex(/^[a-z0-9.-]*$/i, "must be a host name")
    .default(""),
  GTM_CONTAINER_ID: z
    .string()
    .regex(/^GTM-[A-Z0-9]+$/, "must look like GTM-XXXXXXX")
    .optional(),
  ADMIN_EMAILS: z
    .string()
    .transform((value) =>
      value
        .split(",")
        .map((email) => email.trim().toLowerCase())
        .filter(Boolean),
    )
    .default([]),
  TRUST_PROXY: booleanString.default(false),
  WEB_DIST_DIR: z.string().min(1).optional(),
  /** Plan code new organizations get (e.g. "unlimited" when self-hosting); default: the plan marked default. */
  DEFAULT_PLAN: z
    .string()
    .regex(/^[a-z0-9_-]{1,50}$/, "must be a plan code")
    .optional(),
  /** Largest build one upload may stream (bytes); plan space limits apply on top. */
  UPLOAD_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024 * 1024)
    .default(8 * 1024 ** 3),
  /** A connection that sends and receives nothing for this long is closed. */
  HTTP_IDLE_TIMEOUT_MS: z.coerce.number().int().min(100).default(60_000),
  /** The request line and headers must arrive within this. */
  HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).default(20_000),
  /** A request body must keep arriving at least this fast (bytes per second, over the window). */
  BODY_MIN_BYTES_PER_SECOND: z.coerce.number().int().min(0).default(8192),
  BODY_RATE_WINDOW_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  /** Uploads running at once, per person and per client address (across all processes). */
  UPLOADS_PER_USER: z.coerce.number().int().min(1).max(1000).default(4),
  UPLOADS_PER_ADDRESS: z.coerce.number().int().min(1).max(10_000).default(8),
  /** Most uploads one person may keep waiting for confirmation in an organization. */
  UPLOAD_PENDING_PER_USER: z.coerce.number().int().min(1).max(1000).default(10),
  /** A resumable upload (tus) is removed this long after its last stored bytes unless finished. */
  UPLOAD_RESUMABLE_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 30)
    .default(24),
  /**
   * A resumable upload's PATCH body is stored in parts of at most this many bytes, each kept as
   * soon as it is whole: a connection cut mid-request loses at most one part.
   */
  UPLOAD_RESUMABLE_PART_BYTES: z.coerce
    .number()
    .int()
    .min(64 * 1024)
    .default(16 * 1024 * 1024),
  /** Unreferenced build and icon objects younger than this are left alone by the storage sweep. */
  STORAGE_SWEEP_GRACE_SECONDS: z.coerce.number().int().min(0).default(3600),
  /** bundletool jar that turns an AAB into a universal APK; unset disables the conversion. */
  BUNDLETOOL_JAR: z.string().min(1).optional(),
  JAVA_BIN: z.string().min(1).default("java"),
  AAB_KEYSTORE: z.string().min(1).optional(),
  AAB_KEYSTORE_PASSWORD: z.string().min(1).optional(),
  AAB_KEY_ALIAS: z.string().min(1).optional(),
  AAB_KEY_PASSWORD: z.string().min(1).optional(),
  /**
   * Sign Android builds of apps without any keystore (their own, their organization's or the
   * AAB_* one above) with a key Tarmac makes per app and keeps: fine for internal testing, never
   * for the store. Off: such builds are refused with error 8.
   */
  ANDROID_GENERATED_KEYS: booleanString.default(true),
  /** Most "send to testers" mails one organization sends per minute; the rest wait their turn. */
  TESTER_MAIL_RATE_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(60),
  /** Certificate and key (PEM) that sign the UDID profile; unset: a self-signed pair in DATA_DIR. */
  UDID_SIGNING_CERT: z.string().min(1).optional(),
  UDID_SIGNING_KEY: z.string().min(1).optional(),
  /**
   * On SIGTERM a web process first drains this long: it still serves, while readiness answers
   * 503 and responses close their connections, so a proxy or Kubernetes moves traffic away before
   * the listener closes. 0 (the default, one process on its own) stops at once.
   */
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(120_000).default(0),
  /** How long stopping may take after the drain before the process exits anyway. */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
  /**
   * Lets organization settings point at loopback and private addresses (their buckets, mail
   * servers, webhooks, identity providers): for tests and on-premises installs only.
   */
  ALLOW_PRIVATE_NETWORK_TARGETS: booleanString.default(false),
  /**
   * DNS servers (ip or ip:port, comma separated) asked for the TXT records that prove an
   * organization's domain; the system's resolvers when empty.
   */
  DNS_SERVERS: z
    .string()
    .transform((value) =>
      value
        .split(",")
        .map((server) => server.trim())
        .filter(Boolean),
    )
    .default([]),
  /**
   * Card payments through Stripe. All three set: organizations pay for plans; none set: plans
   * are managed by the instance's administrators and new organizations start unlimited.
   */
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_(test|live)_\w+$/, "must be a Stripe secret key (sk_test_… or sk_live_…)")
    .optional(),
  STRIPE_PUBLISHABLE_KEY: z
    .string()
    .regex(/^pk_(test|live)_\w+$/, "must be a valid publishable key (e.g. begins with pk_test_)")
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_\w+$/, "must be a webhook signing secret (whsec_…)")
    .optional(),
  /** Where the Stripe SDK sends its requests instead of api.stripe.com (a loopback fake in tests). */
  STRIPE_API_URL: z.url({ protocol: /^https?$/ }).optional(),
  /**
   * The stores' hosts, for proxies and tests. They are outbound targets like any other: private
   * and loopback addresses only with ALLOW_PRIVATE_NETWORK_TARGETS=true.
   */
  APP_STORE_CONNECT_API_URL: z.url({ protocol: /^https?$/ }).default("https://api.appstoreconnect.apple.com"),
  GOOGLE_OAUTH_TOKEN_URL: z.url({ protocol: /^https?$/ }).default("https://oauth2.googleapis.com/token"),
  GOOGLE_PLAY_API_URL: z.url({ protocol: /^https?$/ }).default("https://androidpublisher.googleapis.com"),
  /** How often a store's processing of an uploaded build is looked at. */
  STORE_PROCESSING_POLL_MS: z.coerce.number().int().min(10).max(600_000).default(30_000),
  /**
   * The VAPID key pair that signs web pushes (base64url, as `web-push generate-vapid-keys` prints
   * them). Both or neither: unset, the first process makes a pair and keeps it in the database,
   * where every other process finds it.
   */
  VAPID_PUBLIC_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{87}$/, "must be a base64url P-256 public key (87 characters)")
    .optional(),
  VAPID_PRIVATE_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/, "must be a base64url P-256 private key (43 characters)")
    .optional(),
  /** Who push services may contact about this server's pushes: a mailto: or https: URL. */
  VAPID_SUBJECT: z
    .string()
    .regex(/^(mailto:\S+@\S+|https:\/\/\S+)$/, "must be a mailto: or https: URL")
    .optional(),
  /**
   * Certificates (PEM file) trusted for push services besides the system's: a push service run
   * on premises behind a private CA.
   */
  PUSH_SERVICE_CA_FILE: z.string().min(1).optional(),
  /** How long a webhook or chat endpoint has to answer one delivery attempt. */
  WEBHOOK_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(60).default(10),
});

export type Env = z.infer<typeof envSchema>;

export interface Config extends Omit<Env, "PUBLIC_URL" | "SECRET_KEY" | "STORAGE_LOCAL_DIR"> {
  PUBLIC_URL: string;
  SECRET_KEY: string;
  STORAGE_LOCAL_DIR: string;
}

/** Thrown for a bad environment; main prints `message` alone (one line naming the variable) and exits. */
export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

/**
 * Paths are resolved from the directory the user ran npm in (INIT_CWD), not the workspace
 * folder npm switches to, so `DATA_DIR=./data npm start` means the repository's ./data.
 */
function resolveFromLaunchDir(value: string): string {
  return path.resolve(process.env.INIT_CWD ?? process.cwd(), value);
}

function resolveFromLaunchDirUnlessJson(value: string): string {
  return value.trim().startsWith("{") ? value : resolveFromLaunchDir(value);
}

function readOrCreateSecretKey(dataDir: string): string {
  const file = path.join(dataDir, "secret.key");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32).toString("hex");
  writeFileSync(file, `${key}\n`, { mode: 0o600, flag: "wx" });
  chmodSync(file, 0o600);
  return key;
}

/** Where the embedded default keeps its files, worked out without creating anything (backups use it). */
export function dataDirectories(env: { DATA_DIR?: string; STORAGE_LOCAL_DIR?: string } = process.env): {
  dataDir: string;
  storageDir: string;
} {
  const dataDir = resolveFromLaunchDir(env.DATA_DIR || "./data");
  const storageDir = env.STORAGE_LOCAL_DIR
    ? resolveFromLaunchDir(env.STORAGE_LOCAL_DIR)
    : path.join(dataDir, "storage");
  return { dataDir, storageDir };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Empty strings mean "unset": shells and .env files often export VAR= for optional values.
  const present = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ""),
  );
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const variable = issue?.path.join(".") ?? "environment";
    throw new ConfigError(`Invalid configuration: ${variable}: ${issue?.message ?? "invalid value"}`);
  }
  const values = parsed.data;
  const gcsCredentials = values.GCS_CREDENTIALS && resolveFromLaunchDirUnlessJson(values.GCS_CREDENTIALS);
  const storageProblem = storageSettingsProblem({ ...values, GCS_CREDENTIALS: gcsCredentials });
  if (storageProblem) throw new ConfigError(`Invalid configuration: ${storageProblem}`);
  const stripeKeys = [values.STRIPE_SECRET_KEY, values.STRIPE_PUBLISHABLE_KEY, values.STRIPE_WEBHOOK_SECRET];
  if (stripeKeys.some(Boolean) && !stripeKeys.every(Boolean)) {
    throw new ConfigError(
      "Invalid configuration: STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET go together: set all three, or none",
    );
  }
  const storeProblem = privateStoreUrl(values);
  if (storeProblem) throw new ConfigError(`Invalid configuration: ${storeProblem}`);
  if (Boolean(values.VAPID_PUBLIC_KEY) !== Boolean(values.VAPID_PRIVATE_KEY)) {
    throw new ConfigError(
      "Invalid configuration: VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together: set both, or neither",
    );
  }
  const { dataDir, storageDir } = dataDirectories(values);
  const port = values.PORT;
  return {
    ...values,
    DATA_DIR: dataDir,
    PUBLIC_URL: (values.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, ""),
    SECRET_KEY: values.SECRET_KEY ?? readOrCreateSecretKey(dataDir),
    STORAGE_LOCAL_DIR: storageDir,
    // The JSON text of the key, read from its file when a path was given.
    GCS_CREDENTIALS: gcsCredentials && resolveGcsCredentials(gcsCredentials),
    UDID_SIGNING_CERT: values.UDID_SIGNING_CERT && resolveFromLaunchDir(values.UDID_SIGNING_CERT),
    UDID_SIGNING_KEY: values.UDID_SIGNING_KEY && resolveFromLaunchDir(values.UDID_SIGNING_KEY),
    PUSH_SERVICE_CA_FILE: values.PUSH_SERVICE_CA_FILE && resolveFromLaunchDir(values.PUSH_SERVICE_CA_FILE),
  };
}

/**
 * A store URL naming this machine or a private network, which only ALLOW_PRIVATE_NETWORK_TARGETS
 * permits (a name is checked again, by its addresses, on every request).
 */
function privateStoreUrl(values: Env): string | null {
  if (values.ALLOW_PRIVATE_NETWORK_TARGETS) return null;
  for (const name of [
    "APP_STORE_CONNECT_API_URL",
    "GOOGLE_OAUTH_TOKEN_URL",
    "GOOGLE_PLAY_API_URL",
  ] as const) {
    const host = new URL(values[name]).hostname.replace(/^\[|\]$/g, "");
    const isPrivate = isIP(host)
      ? !isPublicAddress(host)
      : host === "localhost" || host.endsWith(".localhost");
    if (isPrivate)
      return `${name}: ${host} is a private address (set ALLOW_PRIVATE_NETWORK_TARGETS=true to allow it)`;
  }
  return null;
}
