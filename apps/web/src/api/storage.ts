// Where an organization's files live: its own bucket (S3-compatible or Google) or the instance's.
import type {
  CustomStorage,
  CustomStorageInput,
  GoogleCloudStorage,
  StorageKind,
  StorageOverview,
} from "@tarmac/contracts";
import { api } from "./client.ts";

export type { CustomStorage, CustomStorageInput, GoogleCloudStorage, StorageKind, StorageOverview };

export const storageKeys = {
  all: (orgId: number) => ["storage", orgId] as const,
  overview: (orgId: number) => ["storage", orgId, "overview"] as const,
  custom: (orgId: number) => ["storage", orgId, "s3"] as const,
  gcs: (orgId: number) => ["storage", orgId, "gcs"] as const,
};

export function fetchStorageOverview(orgId: number) {
  return api.get<StorageOverview>(`/api/orgs-storage/${orgId}/`);
}

export function startStorageMove(orgId: number) {
  return api.post<StorageOverview>(`/api/orgs-storage/${orgId}/move/`);
}

export function fetchCustomStorage(orgId: number) {
  return api.get<CustomStorage>(`/api/orgs-custom-storage/${orgId}/`);
}

/** The server tests the bucket before saving; an empty secret keeps the saved one. */
export function saveCustomStorage(orgId: number, input: CustomStorageInput) {
  const { secret_access_key: secret, ...rest } = input;
  return api.put<CustomStorage>(`/api/orgs-custom-storage/${orgId}/`, secret ? input : rest);
}

export function fetchGoogleCloudStorage(orgId: number) {
  return api.get<GoogleCloudStorage>(`/api/orgs-google-cloud-storage/${orgId}/`);
}

/** Multipart: `bucket`, `prefix`, and the service account's key file (left out: the saved one stays). */
export function saveGoogleCloudStorage(
  orgId: number,
  input: { bucket: string; prefix: string; keyFile: File | null },
) {
  const form = new FormData();
  form.set("bucket", input.bucket);
  form.set("prefix", input.prefix);
  if (input.keyFile) form.set("gcs_credentials", input.keyFile);
  return api.put<GoogleCloudStorage>(`/api/orgs-google-cloud-storage/${orgId}/`, form);
}

export function switchToInstanceStorage(orgId: number) {
  return api.put<{ kind: StorageKind }>(`/api/orgs-cloud-storage-disable/${orgId}/`);
}
