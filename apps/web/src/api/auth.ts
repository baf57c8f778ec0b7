// Calls of the public authentication pages (spec §7, Authentication).
import type {
  ActivateInput,
  ActivationInfo,
  DetailResponse,
  LoginInput,
  LoginResponse,
  PasswordUpdateInput,
  RegisterInput,
  ReinviteInput,
  SsoLookupResult,
  TokenResponse,
} from "@tarmac/contracts";
import { api } from "./client.ts";
import { forgetThisBrowserForPush } from "./push.ts";
import { clearSession } from "./token.ts";

export type { ActivateInput, ActivationInfo, LoginInput, LoginResponse, RegisterInput, SsoLookupResult };

export const authKeys = {
  activation: (code: string) => ["activation", code] as const,
};

/** `mobile`: the `?m=1` sign-in, which mobile users and testers use (the web's Install apps area). */
export function requestLogin(input: LoginInput, mobile = false): Promise<LoginResponse> {
  return api.post<LoginResponse>(mobile ? "/api/user/login/?m=1" : "/api/user/login/", input);
}

export function requestRegistration(input: RegisterInput): Promise<TokenResponse> {
  return api.post<TokenResponse>("/api/user/register/", input);
}

export function requestPasswordReset(email: string): Promise<DetailResponse> {
  return api.post<DetailResponse>("/api/user/password/update/", { email } satisfies PasswordUpdateInput);
}

export function requestPasswordUpdate(
  code: string,
  password: string,
  revokeApiKeys = false,
): Promise<DetailResponse> {
  return api.post<DetailResponse>("/api/user/password/update/", {
    code,
    password,
    revoke_api_keys: revokeApiKeys,
  } satisfies PasswordUpdateInput);
}

export function checkActivation(code: string): Promise<ActivationInfo> {
  return api.get<ActivationInfo>(`/api/user/activate/${encodeURIComponent(code)}/`);
}

export function requestActivation(code: string, input?: ActivateInput): Promise<TokenResponse> {
  return api.post<TokenResponse>(`/api/user/activate/${encodeURIComponent(code)}/`, input);
}

export function requestReinvite(email: string): Promise<DetailResponse> {
  return api.post<DetailResponse>("/api/user/reinvite/", { email } satisfies ReinviteInput);
}

/** Whether the organization of an e-mail address signs in with single sign-on. */
export function lookUpSsoByEmail(email: string): Promise<SsoLookupResult> {
  return api.get<SsoLookupResult>(`/api/check_sso/${encodeURIComponent(email)}/`);
}

/** The identity provider's door for an organization, coming back to `next` (and naming the person). */
export function ssoStartUrl(loginUrl: string, options: { next?: string | null; email?: string }): string {
  const query = new URLSearchParams();
  if (options.next) query.set("next", options.next);
  if (options.email) query.set("login_hint", options.email);
  const text = query.toString();
  return text ? `${loginUrl}?${text}` : loginUrl;
}

export function lookUpSsoByName(name: string): Promise<SsoLookupResult> {
  return api.get<SsoLookupResult>(`/api/check_sso_by_name/${encodeURIComponent(name)}/`);
}

/** Ends the session on the server, then forgets it here even when the server call fails. */
export async function logout(): Promise<void> {
  try {
    // The next person on this browser must not receive this one's notifications.
    await forgetThisBrowserForPush();
    await api.post("/api/user/logout/");
  } finally {
    clearSession();
  }
}

/** Ends every session of the person and revokes the API keys; then forgets the session here. */
export async function logoutEverywhere(): Promise<void> {
  await api.post("/api/user/logout/everywhere/");
  clearSession();
}
