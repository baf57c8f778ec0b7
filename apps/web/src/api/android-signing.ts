// Android signing: the keystore of an app (or its organization) and signing one build.
import type { AndroidBuildSigning, AppKeystore, OrganizationKeystore } from "@tarmac/contracts";
import { api } from "./client.ts";

export type { AndroidBuildSigning, AppKeystore, OrganizationKeystore };

export const signingKeys = {
  appKeystore: (appId: number) => ["app-keystore", appId] as const,
  build: (buildId: number) => ["build-signing", buildId] as const,
};

export interface KeystoreForm {
  file: File;
  storePassword: string;
  keyAlias: string;
  keyPassword: string;
}

export function fetchAppKeystore(appId: number) {
  return api.get<AppKeystore>(`/api/app-keystore/${appId}/`);
}

/** The server opens the keystore before saving it: a wrong password or alias is a 400 on that field. */
export function saveAppKeystore(appId: number, input: KeystoreForm) {
  const form = new FormData();
  form.set("store_password", input.storePassword);
  form.set("key_alias", input.keyAlias);
  form.set("key_password", input.keyPassword);
  form.set("keystore_file", input.file);
  return api.put<AppKeystore>(`/api/app-keystore/${appId}/`, form);
}

export function fetchBuildSigning(buildId: number) {
  return api.get<AndroidBuildSigning>(`/api/app-resign-aab-build/?build_id=${buildId}`);
}

/** Starts signing (an AAB is converted first); the task is polled at /api/upload-task-result/{id}/. */
export function startBuildSigning(buildId: number) {
  return api.post<{ task_id: string }>("/api/app-resign-aab-build/", { build_id: buildId });
}
