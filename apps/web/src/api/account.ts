// Calls of the signed-in user's own account: profile, password, 2FA, API key, export, deletion.
import type {
  ApiKeyState,
  DataExport,
  DataExportCreated,
  DetailResponse,
  MembershipWithApiKey,
  PasswordChangeInput,
  Profile,
  ProfileDeleteInput,
  ProfileOrgData,
  ProfileUpdateInput,
  RecoveryCodesResponse,
  TwoFactorDisabled,
  TwoFactorDisableInput,
  TwoFactorEnabled,
  TwoFactorKey,
  TwoFactorTokenInput,
} from "@tarmac/contracts";
import { api, apiRequest } from "./client.ts";

// The shapes are the server's own contract types, so the two sides cannot drift apart.
export type { DataExport, Profile, ProfileOrgData as OrgData, TwoFactorKey };

/** One proof at a time: a current code or the password. */
export type TwoFactorProof =
  | Required<Pick<TwoFactorDisableInput, "token">>
  | Required<Pick<TwoFactorDisableInput, "password">>;

export const accountKeys = {
  profile: () => ["profile"] as const,
  dataExports: () => ["data-exports"] as const,
  apiKeyState: () => ["api-key-state"] as const,
};

/** Whether a new API key would replace one the caller already holds. */
export async function fetchHasApiKey(): Promise<boolean> {
  return (await api.get<ApiKeyState>("/api/profiles/api-key/")).has_api_key;
}

/** The profile list always holds the caller alone; an empty or odd answer counts as a failure. */
export async function fetchProfile(): Promise<Profile> {
  const list = await api.get<Profile[] | null>("/api/profiles/");
  const profile = Array.isArray(list) ? list[0] : undefined;
  if (!profile) throw new Error("The profile answer holds no profile");
  return profile;
}

export function updateProfileNames(userId: number, names: ProfileUpdateInput) {
  return api.put<Profile>(`/api/profiles/${userId}/`, names);
}

export function changePassword(input: PasswordChangeInput) {
  return api.post<DetailResponse>("/api/user/password/change/", input);
}

export function fetchTwoFactorKey(): Promise<TwoFactorKey> {
  return api.get<TwoFactorKey>("/api/user/get-2fa-key/");
}

export function confirmTwoFactor(token: string) {
  return api.post<TwoFactorEnabled>("/api/user/check-2fa-token/", { token } satisfies TwoFactorTokenInput);
}

export function regenerateRecoveryCodes() {
  return api.get<RecoveryCodesResponse>("/api/user/recovery-codes-2fa/");
}

export function disableTwoFactor(proof: TwoFactorProof) {
  return api.post<TwoFactorDisabled>("/api/user/disable-2fa/", proof);
}

/** The membership detail call with `newapikey` answers the member together with the new key. */
export function rotateApiKey(membershipId: number) {
  return api.get<MembershipWithApiKey>(`/api/usersinorgs/${membershipId}/`, { query: { newapikey: 1 } });
}

export function requestDataExport() {
  return api.post<DataExportCreated>("/api/data-gdpr/");
}

export function fetchDataExports() {
  return api.get<DataExport[]>("/api/data-gdpr/");
}

export function deleteAccount(password: string) {
  return apiRequest<null>("/api/profiles/0/", {
    method: "DELETE",
    body: { password } satisfies ProfileDeleteInput,
  });
}
