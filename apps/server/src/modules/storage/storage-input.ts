import { createPrivateKey } from "node:crypto";
import type { CustomStorageInput } from "@tarmac/contracts";
import { AppError } from "../../http/errors.ts";
import { privateAddressMessage } from "../../platform/net/network-errors.ts";
import { assertPublicHost, OutboundTargetError } from "../../platform/net/outbound-target.ts";
import type { GcsServiceAccount } from "../../platform/storage/storage-settings.ts";

const googleTokenUri = "https://oauth2.googleapis.com/token";

/**
 * An S3 endpoint an organization typed: https on a public host. Plain http and private hosts
 * only where the instance allows private targets (tests, on-premises MinIO).
 */
export async function checkEndpoint(endpoint: string, allowPrivate: boolean): Promise<void> {
  if (!endpoint) return;
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw AppError.validation({ endpoint: ["Enter a valid URL."] });
  }
  const secure = url.protocol === "https:";
  if (!(secure || (allowPrivate && url.protocol === "http:"))) {
    throw AppError.validation({ endpoint: ["Use an https:// address."] });
  }
  if (url.username || url.password || url.search || url.hash) {
    throw AppError.validation({
      endpoint: ["Enter the service address alone, without credentials or query."],
    });
  }
  try {
    await assertPublicHost(url.hostname, allowPrivate);
  } catch (error) {
    const reason =
      error instanceof OutboundTargetError ? privateAddressMessage : "This host name does not resolve.";
    throw AppError.validation({ endpoint: [reason] });
  }
}

/** The secret to save: the one sent, else the one saved before, else the field is missing. */
export function chooseSecret(sent: CustomStorageInput["secret_access_key"], saved: string | null): string {
  if (sent?.trim()) return sent.trim();
  if (saved) return saved;
  throw AppError.validation({ secret_access_key: ["This field is required."] });
}

/** A Google service-account key file, checked before anything is tried with it. */
export function parseServiceAccount(bytes: Buffer, allowPrivate: boolean): GcsServiceAccount {
  const invalid = (message: string) => AppError.validation({ gcs_credentials: [message] });
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(bytes.toString("utf8")) as Record<string, unknown>;
  } catch {
    throw invalid("Upload the service account's JSON key file.");
  }
  if (parsed.type !== "service_account")
    throw invalid("This is not a service account key (type must be service_account).");
  for (const field of ["project_id", "client_email", "private_key"] as const) {
    if (typeof parsed[field] !== "string" || !parsed[field]) throw invalid(`The key file has no ${field}.`);
  }
  try {
    createPrivateKey(parsed.private_key as string);
  } catch {
    throw invalid("The key file's private_key is not a valid private key.");
  }
  const tokenUri = typeof parsed.token_uri === "string" ? parsed.token_uri : googleTokenUri;
  // The client posts the signed key to token_uri: anything but Google's would be a request
  // from this server to wherever the file says.
  if (tokenUri !== googleTokenUri && !allowPrivate) throw invalid(`token_uri must be ${googleTokenUri}.`);
  return {
    type: "service_account",
    project_id: parsed.project_id as string,
    private_key_id: typeof parsed.private_key_id === "string" ? parsed.private_key_id : undefined,
    private_key: parsed.private_key as string,
    client_email: parsed.client_email as string,
    token_uri: tokenUri,
  };
}
