// The organization's single sign-on (OpenID Connect for now).
import {
  type OidcSettings,
  type OidcSettingsInput,
  type SamlKind,
  type SamlSettings,
  type SsoSession,
  samlKinds,
  samlMetadataFields,
} from "@tarmac/contracts";
import { api } from "./client.ts";

export type { OidcSettings, OidcSettingsInput, SamlKind, SamlSettings, SsoSession };
export { samlKinds };

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

export const samlKeys = { detail: (orgId: number, kind: string) => ["sso", "saml", orgId, kind] as const };

export function fetchSaml(orgId: number, kind: SamlKind) {
  return api.get<SamlSettings>(`/api/orgs-sso-${kind}/${orgId}/`);
}

export interface SamlForm {
  metadataFile: File | null;
  metadataUrl: string;
  certificateFile: File | null;
  privateKeyFile: File | null;
  enabled: boolean;
  default_role: string;
  allowed_domains: string[];
  require_sso: boolean;
}

/** Multipart: the kind's metadata file or its URL, and the optional SP certificate and key (left out: kept). */
export function saveSaml(orgId: number, kind: SamlKind, input: SamlForm) {
  const form = new FormData();
  form.set("metadata_url", input.metadataUrl);
  form.set("enabled", String(input.enabled));
  form.set("default_role", input.default_role);
  form.set("allowed_domains", input.allowed_domains.join(","));
  form.set("require_sso", String(input.require_sso));
  if (input.metadataFile) form.set(samlMetadataFields[kind], input.metadataFile);
  if (input.certificateFile) form.set("certificate_file", input.certificateFile);
  if (input.privateKeyFile) form.set("private_key_file", input.privateKeyFile);
  return api.put<SamlSettings>(`/api/orgs-sso-${kind}/${orgId}/`, form);
}
