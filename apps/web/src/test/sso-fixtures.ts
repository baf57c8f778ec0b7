// Answers shaped like the single sign-on API, for tests.
import type { OidcSettings, SsoDomain } from "@tarmac/contracts";

/** OpenID Connect not set up yet. */
export const NO_OIDC: OidcSettings = {
  configured: false,
  enabled: false,
  issuer: "",
  client_id: "",
  client_secret_set: false,
  scopes: "openid email profile",
  default_role: 3,
  allowed_domains: [],
  require_sso: false,
  redirect_uri: "https://tarmac.test/api/sso/oidc/callback/",
  login_url: "https://tarmac.test/login-custom-client?org=acme",
  updated_at: null,
};

/** A domain claim, not proven yet unless overridden. */
export function makeDomainClaim(overrides: Partial<SsoDomain> = {}): SsoDomain {
  return {
    id: 1,
    domain: "acme.test",
    txt_name: "_tarmac-challenge.acme.test",
    txt_value: "tarmac-domain-verification=abc",
    verified: false,
    verified_at: null,
    checked_at: null,
    failed_checks: 0,
    ...overrides,
  };
}
