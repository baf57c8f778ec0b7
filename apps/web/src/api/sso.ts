// Single sign-on: the organization's providers (OpenID Connect, SAML) and proven domains, and a
// person's own side of it (links, mailed link requests, the second factor after the provider).
import {
  type OidcSettings,
  type OidcSettingsInput,
  type SamlKind,
  type SamlSettings,
  type SsoDomain,
  type SsoDomainInput,
  type SsoLinkConfirmation,
  type SsoLinkRequest,
  type SsoLinks,
  type SsoRedirect,
  type SsoSecondFactorInput,
  type SsoSecondFactorResult,
  type SsoSession,
  samlKinds,
  samlMetadataFields,
} from "@tarmac/contracts";
import { api } from "./client.ts";

export type {
  OidcSettings,
  OidcSettingsInput,
  SamlKind,
  SamlSettings,
  SsoDomain,
  SsoLinkRequest,
  SsoLinks,
  SsoSession,
};
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

export const ssoDomainKeys = { list: (orgId: number) => ["sso", "domains", orgId] as const };

/** The e-mail domains the organization claims, each with the TXT record that proves it. */
export function fetchSsoDomains(orgId: number) {
  return api.get<SsoDomain[]>(`/api/orgs-sso-domains/${orgId}/`);
}

export function addSsoDomain(orgId: number, domain: string) {
  return api.post<SsoDomain>(`/api/orgs-sso-domains/${orgId}/`, { domain } satisfies SsoDomainInput);
}

/** Looks the TXT record up now: the proven claim, or a 400 saying what DNS answered. */
export function verifySsoDomain(orgId: number, claimId: number) {
  return api.post<SsoDomain>(`/api/orgs-sso-domains/${orgId}/${claimId}/verify/`);
}

export function removeSsoDomain(orgId: number, claimId: number) {
  return api.delete<null>(`/api/orgs-sso-domains/${orgId}/${claimId}/`);
}

export const ssoLinkKeys = {
  mine: () => ["sso", "links"] as const,
  request: (code: string) => ["sso", "link-request", code] as const,
};

/** The organizations whose sign-in opens the signed-in account, and the one it may link. */
export function fetchSsoLinks() {
  return api.get<SsoLinks>("/api/sso/links/");
}

/** Where the browser goes to link the account (a password session only). */
export function startSsoLink(organizationId: number) {
  return api.post<SsoRedirect>("/api/sso/links/start/", { organization: organizationId });
}

export function unlinkSso(organizationId: number) {
  return api.delete<null>(`/api/sso/links/${organizationId}/`);
}

/** What a mailed link offers to link. */
export function fetchSsoLinkRequest(code: string) {
  return api.get<SsoLinkRequest>(`/api/sso/link-requests/${encodeURIComponent(code)}/`);
}

export function confirmSsoLinkRequest(code: string) {
  return api.post<SsoLinkConfirmation>(`/api/sso/link-requests/${encodeURIComponent(code)}/`);
}

/** The account's own code after its organization's provider vouched for it; answers the session. */
export function finishSsoSecondFactor(input: SsoSecondFactorInput) {
  return api.post<SsoSecondFactorResult>("/api/sso/second-factor/", input);
}
