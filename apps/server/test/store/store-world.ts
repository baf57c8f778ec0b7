import { generateKeyPairSync, randomBytes, randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import { fileSource, inspect } from "@tarmac/inspector";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll } from "vitest";
import { createApp, fixturePath } from "../helpers/app-factories.ts";
import { AppStoreConnectPeer } from "../helpers/app-store-connect-peer.ts";
import { authHeader } from "../helpers/factories.ts";
import { GooglePlayPeer } from "../helpers/google-play-peer.ts";
import { applications, versions } from "../helpers/tables.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

/** A test app wired to both store fakes on loopback, with their keys. */
export const world = {} as { t: TestApp; apple: AppStoreConnectPeer; google: GooglePlayPeer };

export function useStoreWorld(): void {
  beforeAll(async () => {
    world.apple = new AppStoreConnectPeer();
    world.google = new GooglePlayPeer();
    const appleUrl = await world.apple.start();
    const googleUrl = await world.google.start();
    world.t = await createTestApp({
      ALLOW_PRIVATE_NETWORK_TARGETS: "true",
      APP_STORE_CONNECT_API_URL: appleUrl,
      GOOGLE_OAUTH_TOKEN_URL: world.google.tokenUrl,
      GOOGLE_PLAY_API_URL: googleUrl,
      STORE_PROCESSING_POLL_MS: "10",
    });
  });
  afterAll(async () => {
    await world.t?.close();
    await world.apple?.stop();
    await world.google?.stop();
  });
}

/** An App Store Connect API key as Apple hands it out: a P-256 .p8, its key id and issuer. */
export function appleKey() {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const keyId = randomBytes(5).toString("hex").toUpperCase();
  return {
    keyId,
    issuerId: randomUUID(),
    p8: privateKey.export({ format: "pem", type: "pkcs8" }).toString(),
    publicKey,
  };
}

/** A Google service-account JSON key. */
export function googleServiceAccount() {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const email = `publisher-${randomBytes(4).toString("hex")}@tarmac-test.iam.gserviceaccount.com`;
  const json = JSON.stringify({
    type: "service_account",
    project_id: "tarmac-test",
    private_key_id: randomBytes(20).toString("hex"),
    private_key: privateKey.export({ format: "pem", type: "pkcs8" }).toString(),
    client_email: email,
    token_uri: "https://oauth2.googleapis.com/token",
  });
  return { email, json, publicKey };
}

export function multipart(
  fields: Record<string, string>,
  files: Record<string, { name: string; body: string | Buffer }> = {},
) {
  const boundary = `----tarmac${randomBytes(8).toString("hex")}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  for (const [name, file] of Object.entries(files)) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\ncontent-disposition: form-data; name="${name}"; filename="${file.name}"\r\ncontent-type: application/octet-stream\r\n\r\n`,
      ),
      Buffer.from(file.body),
      Buffer.from("\r\n"),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(parts),
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
  };
}

export async function postForm(
  token: string,
  url: string,
  fields: Record<string, string>,
  files: Record<string, { name: string; body: string | Buffer }> = {},
) {
  const form = multipart(fields, files);
  return world.t.app.inject({
    method: "POST",
    url,
    headers: { ...authHeader(token), ...form.headers },
    payload: form.payload,
  });
}

/** Saves an Apple key the fake knows, through the API. */
export async function addAppleAccount(token: string, organizationId: number) {
  const key = appleKey();
  world.apple.addKey(key.keyId, key.issuerId, key.publicKey);
  const response = await postForm(
    token,
    "/api/apple-developer-accounts/",
    { org: String(organizationId), key_name: "CI key", issuer_id: key.issuerId, key_id: key.keyId },
    { private_key_file: { name: `AuthKey_${key.keyId}.p8`, body: key.p8 } },
  );
  if (response.statusCode !== 201) throw new Error(`apple account: ${response.statusCode} ${response.body}`);
  return { key, account: response.json() as { id: number } };
}

export async function addGoogleAccount(token: string, organizationId: number) {
  const serviceAccount = googleServiceAccount();
  world.google.addServiceAccount(serviceAccount.email, serviceAccount.publicKey);
  const response = await postForm(
    token,
    "/api/google-developer-accounts/",
    { org: String(organizationId), key_name: "Play publisher" },
    { private_key_file: { name: "key.json", body: serviceAccount.json } },
  );
  if (response.statusCode !== 201) throw new Error(`google account: ${response.statusCode} ${response.body}`);
  return { serviceAccount, account: response.json() as { id: number } };
}

/**
 * An app with one build whose reading is the real fixture's (an App Store signed IPA, an
 * ad-hoc one, a signed AAB) and whose stored file is `size` bytes of random data: the stores
 * are sent the stored bytes, and a bigger file makes several slices.
 */
export async function createStoreBuild(
  organizationId: number,
  options: {
    fixture: "apple/ipa/appstore.ipa" | "apple/ipa/adhoc.ipa" | "android/bundle.aab";
    size: number;
    buildNumber: string;
    whatsNew?: string;
  },
) {
  const { t } = world;
  const fileName = options.fixture.split("/").pop() as string;
  const source = await fileSource(fixturePath(options.fixture));
  const info = await inspect(source, { fileName }).finally(() => source.close?.());
  // Each build its own identifier, so the stores' apps of different tests never meet.
  const bundleId = `${info.bundle_id}.t${randomBytes(4).toString("hex")}`;
  const { icon: _icon, ...read } = info as unknown as Record<string, unknown>;
  const buildInfo = { ...read, bundle_id: bundleId };
  const android = options.fixture.endsWith(".aab");
  const app = await createApp(t, organizationId, { appType: android ? 0 : 1, bundleId });
  const bytes = randomBytes(options.size);
  const fileKey = `orgs/${organizationId}/apps/${app.id}/${randomUUID()}.bin`;
  const stored = await t.platform.storage.put(fileKey, Readable.from([bytes]));
  const [version] = await t.database.db
    .insert(versions)
    .values({
      organizationId,
      applicationId: app.id,
      version: info.version ?? "1.0",
      buildNumber: options.buildNumber,
      fileKey,
      fileName,
      fileSize: stored.size,
      sha256: stored.sha256,
      contentType: "application/octet-stream",
      bundleId,
      buildInfo,
      whatsNew: options.whatsNew ?? "",
    })
    .returning();
  if (!version) throw new Error("version insert failed");
  await t.database.db
    .update(applications)
    .set({ currentVersionId: version.id, versionsCount: sql`${applications.versionsCount} + 1` })
    .where(eq(applications.id, app.id));
  return { app, version, bundleId, bytes };
}

/** Runs the queued store upload's job as a worker would (attempt `retryCount`). */
export async function runUploadJob(taskId: string, retryCount = 0) {
  await world.t.job("store.upload").handler({ taskId }, { jobId: randomUUID(), retryCount });
}

/** The domain events of a type queued so far, oldest first. */
export async function eventsOf(type: string) {
  const { rows } = await world.t.database.sql.executeSql(
    "select data from pgboss.job where name = 'events.dispatch' and data->>'type' = $1 order by created_on",
    [type],
  );
  return rows.map((row) => row.data as { type: string; data: Record<string, unknown> });
}
