import { createWriteStream } from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { multipart } from "../builds/upload-helpers.ts";
import { authHeader } from "../helpers/factories.ts";
import { tempDir } from "../helpers/temp-dirs.ts";
import type { TestApp } from "../helpers/test-app.ts";
import { waitFor } from "../helpers/wait-for.ts";
import type { TestKeystore } from "./signing-keys.ts";

/** PUT the keystore as the settings form sends it; `override` replaces or drops (undefined) fields. */
export function putKeystore(
  t: TestApp,
  token: string,
  url: string,
  keystore: TestKeystore | null,
  override: Record<string, string | undefined> = {},
  file?: Buffer,
) {
  const fields: Record<string, string> = {};
  const all = {
    store_password: keystore?.storePassword,
    key_alias: keystore?.keyAlias,
    key_password: keystore?.keyPassword,
    ...override,
  };
  for (const [name, value] of Object.entries(all)) if (value !== undefined) fields[name] = value;
  const content = file ?? keystore?.file;
  const body = multipart(
    fields,
    content
      ? { field: "keystore_file", name: path.basename(keystore?.path ?? "release.jks"), content }
      : undefined,
  );
  return t.app.inject({
    method: "PUT",
    url,
    headers: { ...authHeader(token), ...body.headers },
    payload: body.payload,
  });
}

export function startSigning(t: TestApp, token: string, buildId: number) {
  return t.app.inject({
    method: "POST",
    url: "/api/app-resign-aab-build/",
    headers: authHeader(token),
    payload: { build_id: buildId },
  });
}

export async function pollTask(t: TestApp, token: string, taskId: string) {
  let body: Record<string, unknown> = {};
  await waitFor(async () => {
    const response = await t.app.inject({
      method: "GET",
      url: `/api/upload-task-result/${taskId}/`,
      headers: authHeader(token),
    });
    body = response.json();
    return body.state === "SUCCESS" || body.state === "FAILURE" ? true : undefined;
  }, 60_000);
  return body;
}

/** Copies a stored object to a temporary file, for the reference tools to read. */
export async function storedToFile(t: TestApp, key: string, name = "stored.apk"): Promise<string> {
  const file = path.join(tempDir("stored"), name);
  await pipeline(await t.platform.storage.read(key), createWriteStream(file));
  return file;
}
