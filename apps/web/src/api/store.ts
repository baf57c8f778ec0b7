// Publishing builds to TestFlight and Google Play: developer accounts, checks, uploads.
import type { DeveloperAccount, StoreCheckResult, StoreKind, StoreUpload } from "@tarmac/contracts";
import { api } from "./client.ts";

export type { DeveloperAccount, StoreCheckResult, StoreKind, StoreUpload };

const accountsPath: Record<StoreKind, string> = {
  app_store: "/api/apple-developer-accounts/",
  google_play: "/api/google-developer-accounts/",
};
const uploadPath: Record<StoreKind, string> = {
  app_store: "/api/upload_ipa_tesflight/",
  google_play: "/api/upload_aab_googleplay/",
};
const checkPath: Record<StoreKind, string> = {
  app_store: "/api/check_possibility_to_upload_ipa/",
  google_play: "/api/check_possibility_to_upload_aab/",
};

export const storeKeys = {
  accounts: (orgId: number, store: StoreKind) => ["store-accounts", orgId, store] as const,
  allAccounts: (orgId: number) => ["store-accounts", orgId] as const,
  check: (store: StoreKind, accountId: number, versionId: number) =>
    ["store-check", store, accountId, versionId] as const,
  task: (store: StoreKind, taskId: string) => ["store-task", store, taskId] as const,
  history: (appId: number) => ["store-history", appId] as const,
};

/** Which store takes builds of an app type: iOS builds go to TestFlight, Android bundles to Google Play. */
export function storeForAppType(appType: number): StoreKind | null {
  if (appType === 1) return "app_store";
  if (appType === 0) return "google_play";
  return null;
}

export function listDeveloperAccounts(orgId: number, store: StoreKind) {
  return api.get<DeveloperAccount[]>(accountsPath[store], { query: { org: orgId } });
}

/** Multipart: the store proves the key works before it is saved. */
export function addDeveloperAccount(
  store: StoreKind,
  input: { org: number; key_name: string; issuer_id?: string; key_id?: string; keyFile: File | null },
) {
  const form = new FormData();
  form.set("org", String(input.org));
  form.set("key_name", input.key_name);
  if (store === "app_store") {
    form.set("issuer_id", input.issuer_id ?? "");
    form.set("key_id", input.key_id ?? "");
  }
  if (input.keyFile) form.set("private_key_file", input.keyFile);
  return api.post<DeveloperAccount>(accountsPath[store], form);
}

export function deleteDeveloperAccount(store: StoreKind, id: number) {
  return api.delete<null>(`${accountsPath[store]}${id}/`);
}

export function checkStoreUpload(
  store: StoreKind,
  input: { integration_id: number; app_id: number; uid: number },
) {
  return api.post<StoreCheckResult>(checkPath[store], input);
}

export interface PublishInput {
  uid: number;
  app_id: number;
  integration_id: number;
  release_notes: string;
  track?: string;
  rollout?: number;
  language?: string;
  groups?: string;
}

export function startStoreUpload(store: StoreKind, input: PublishInput) {
  const form = new FormData();
  for (const [key, value] of Object.entries(input)) {
    if (value !== undefined && value !== "") form.set(key, String(value));
  }
  return api.post<{ task_id: string }>(uploadPath[store], form);
}

export function fetchStoreUpload(store: StoreKind, taskId: string) {
  return api.get<StoreUpload>(uploadPath[store], { query: { task_id: taskId } });
}

export function listStoreUploads(appId: number) {
  return api.get<StoreUpload[]>("/api/store-uploads/", { query: { app_id: appId } });
}

/** Whether an upload is still under way (its state changes on its own). */
export function isUnderWay(upload: StoreUpload): boolean {
  return upload.state !== "done" && upload.state !== "failed";
}
