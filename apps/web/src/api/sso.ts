// The organization's single sign-on (OpenID Connect for now).
import type { OidcSettings, OidcSettingsInput, SsoSession } from "@tarmac/contracts";
import { api } from "./client.ts";

export type { OidcSettings, OidcSettingsInput, SsoSession };

export const ssoKeys = { oidc: (orgId: number) => ["sso", "oidc", orgId] as const };

export function fetchOidc(orgId: number) {
  return api.get<OidcSettings>(`/api/orgs-oidc/${orgId}/`);
}

/** The provider's configuration is read before saving; an empty secret keeps the saved one. */
export function saveOidc(orgId: number, input: OidcSettingsInput) {
  const { client_secret, ...rest } = input;
  return api.patch<OidcSettings>(`/api/orgs-oidc/${orgId}/`, client_secret ? input : rest);
}

export function clearOidc(orgId: number) {
  return api.post<OidcSettings>(`/api/orgs-oidc/${orgId}/clear/`);
}

export const ssoSessionKeys = { list: (orgId: number) => ["sso", "sessions", orgId] as const };

export function fetchSsoSessions(orgId: number) {
  return api.get<SsoSession[]>(`/api/orgs-sso-sessions/${orgId}/`);
}

export function revokeSsoSessions(orgId: number, userId: number) {
  return api.post<{ revoked: number }>(`/api/orgs-sso-sessions/${orgId}/revoke/`, { user: userId });
}
