import { createPrivateKey } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";

/** The environment variables each storage driver cannot do without. */
const requiredByDriver: Record<string, string[]> = {
  local: [],
  s3: ["S3_BUCKET", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"],
  gcs: ["GCS_BUCKET", "GCS_CREDENTIALS"],
  azure: ["AZURE_STORAGE_CONNECTION_STRING", "AZURE_STORAGE_CONTAINER"],
};

/**
 * Checks the chosen storage driver's settings; answers the problem as "VARIABLE: reason" (the
 * start stops with that one line), or null. GCS_CREDENTIALS may be a path or the JSON itself;
 * `resolveGcsCredentials` turns it into the JSON text.
 */
export function storageSettingsProblem(values: Record<string, unknown>): string | null {
  const driver = String(values.STORAGE_DRIVER);
  for (const variable of requiredByDriver[driver] ?? []) {
    if (values[variable] === undefined) return `${variable}: required when STORAGE_DRIVER=${driver}`;
  }
  if (driver === "gcs") {
    try {
      checkServiceAccount(resolveGcsCredentials(String(values.GCS_CREDENTIALS)));
    } catch (error) {
      return `GCS_CREDENTIALS: ${(error as Error).message}`;
    }
  }
  return null;
}

export function resolveGcsCredentials(value: string): string {
  const trimmed = value.trim();
  if (trimmed.startsWith("{")) return trimmed;
  if (!existsSync(trimmed)) throw new Error("neither a JSON key nor a readable file");
  return readFileSync(trimmed, "utf8");
}

function checkServiceAccount(json: string): void {
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new Error("not valid JSON");
  }
  if (parsed.type !== "service_account")
    throw new Error("not a service account key (type must be service_account)");
  for (const field of ["client_email", "private_key"]) {
    if (typeof parsed[field] !== "string" || !parsed[field]) throw new Error(`the key has no ${field}`);
  }
  try {
    createPrivateKey(parsed.private_key as string);
  } catch {
    throw new Error("private_key is not a valid private key");
  }
}
