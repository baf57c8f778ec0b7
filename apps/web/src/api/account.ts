// Calls of the signed-in user's own account: profile, password, 2FA, API key, export, deletion.
import type { DataExport, Profile, ProfileOrgData } from "@tarmac/contracts";
import { api, apiRequest } from "./client.ts";

// The shapes are the server's own contract types, so the two sides cannot drift apart.
export type { DataExport, Profile, ProfileOrgData as OrgData };

export interface TwoFactorKey {
  secret: string;
  otpauth_uri: string;
  qr_code: string;
}

/** The profile list always holds the caller alone; an empty or odd answer counts as a failure. */
export async function fetchProfile(): Promise<Profile> {
  const list = await api.get<Profile[] | null>("/api/profiles/");
  const profile = Array.isArray(list) ? list[0] : undefined;
  if (!profile) throw new Error("The profile answer holds no profile");
  return profile;
}

export function updateProfileNames(userId: number, names: { first_name: string; last_name: string }) {
  return api.put<Profile>(`/api/profiles/${userId}/`, names);
}

export function changePassword(input: { old_password: string; new_password: string }) {
  return api.post<{ detail: string }>("/api/user/password/change/", input);
}

export function fetchTwoFactorKey(): Promise<TwoFactorKey> {
  return api.get<TwoFactorKey>("/api/user/get-2fa-key/");
}

export function confirmTwoFactor(token: string) {
  return api.post<{ two_factor_enabled: boolean; recovery_codes: string[] }>("/api/user/check-2fa-token/", {
    token,
  });
}

export function regenerateRecoveryCodes() {
  return api.get<{ recovery_codes: string[] }>("/api/user/recovery-codes-2fa/");
}

export function disableTwoFactor(proof: { token: string } | { password: string }) {
  return api.post<{ two_factor_enabled: boolean }>("/api/user/disable-2fa/", proof);
}

export function rotateApiKey(membershipId: number) {
  return api.get<{ api_key: string }>(`/api/usersinorgs/${membershipId}/`, { query: { newapikey: 1 } });
}

export function requestDataExport() {
  return api.post<{ id: number; status: string }>("/api/data-gdpr/");
}

export function fetchDataExports() {
  return api.get<DataExport[]>("/api/data-gdpr/");
}

export function deleteAccount(password: string) {
  return apiRequest<null>("/api/profiles/0/", { method: "DELETE", body: { password } });
}
