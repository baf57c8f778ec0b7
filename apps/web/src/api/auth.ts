// Calls of the public authentication pages (spec §7, Authentication).
import { api } from "./client.ts";
import { clearSession } from "./token.ts";

export interface LoginInput {
  email: string;
  password: string;
  otp?: string;
}

export interface LoginReply {
  token?: string;
  mobile_only?: boolean;
  two_factor_required?: boolean;
}

export interface RegisterInput {
  email: string;
  password: string;
  first_name: string;
  last_name: string;
}

export interface ActivateReply {
  token?: string;
  detail?: string;
}

export interface SsoLookupReply {
  login_url?: string | null;
}

export function requestLogin(input: LoginInput): Promise<LoginReply> {
  return api.post<LoginReply>("/api/user/login/", input);
}

export function requestRegistration(input: RegisterInput): Promise<{ token?: string } | null> {
  return api.post<{ token?: string } | null>("/api/user/register/", input);
}

export function requestPasswordReset(email: string): Promise<unknown> {
  return api.post("/api/user/password/update/", { email });
}

export function requestPasswordUpdate(code: string, password: string): Promise<unknown> {
  return api.post("/api/user/password/update/", { code, password });
}

export interface ActivationInfo {
  email: string;
  kind: "activation" | "invitation";
  requires_password: boolean;
}

export interface ActivationInput {
  password?: string;
  first_name?: string;
  last_name?: string;
}

export function checkActivation(code: string): Promise<ActivationInfo> {
  return api.get<ActivationInfo>(`/api/user/activate/${encodeURIComponent(code)}/`);
}

export function requestActivation(code: string, input?: ActivationInput): Promise<ActivateReply | null> {
  return api.post<ActivateReply | null>(`/api/user/activate/${encodeURIComponent(code)}/`, input);
}

export function requestReinvite(email: string): Promise<unknown> {
  return api.post("/api/user/reinvite/", { email });
}

export function lookUpSsoByName(name: string): Promise<SsoLookupReply> {
  return api.get<SsoLookupReply>(`/api/check_sso_by_name/${encodeURIComponent(name)}/`);
}

/** Ends the session on the server, then forgets it here even when the server call fails. */
export async function logout(): Promise<void> {
  try {
    await api.post("/api/user/logout/");
  } finally {
    clearSession();
  }
}
