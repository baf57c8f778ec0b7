import { z } from "zod";

const longest = (length: number) => `Ensure this field has no more than ${length} characters.`;

/** Roles an account made by single sign-on may start with (not owner). */
export const ssoDefaultRoles = [2, 3, 4, 5] as const;

const domainList = z
  .array(
    z
      .string()
      .trim()
      .toLowerCase()
      .regex(/^(?=.{1,253}$)([a-z0-9-]+\.)+[a-z]{2,}$/, "Enter a domain such as example.com."),
  )
  .max(50);

/** `GET /api/orgs-oidc/{id}/`: the organization's OpenID Connect sign-in. The client secret is never sent back. */
export const oidcSettings = z
  .object({
    configured: z.boolean(),
    enabled: z.boolean(),
    issuer: z.string(),
    client_id: z.string(),
    client_secret_set: z.boolean(),
    scopes: z.string(),
    default_role: z.number().int(),
    allowed_domains: z.array(z.string()),
    /** Members other than the owner may not sign in with a password. */
    require_sso: z.boolean(),
    /** What to register at the provider. */
    redirect_uri: z.string(),
    login_url: z.string(),
    updated_at: z.string().nullable(),
  })
  .meta({ id: "OidcSettings" });
export type OidcSettings = z.infer<typeof oidcSettings>;

export const oidcSettingsInput = z.object({
  issuer: z.string().trim().min(1, "This field may not be blank.").max(500, longest(500)),
  client_id: z.string().trim().min(1, "This field may not be blank.").max(500, longest(500)),
  /** Left out (or empty) to keep the saved secret. */
  client_secret: z.string().max(2000, longest(2000)).optional(),
  scopes: z.string().trim().max(500, longest(500)).default("openid email profile"),
  enabled: z.boolean().default(true),
  default_role: z.union([z.literal(2), z.literal(3), z.literal(4), z.literal(5)]).default(3),
  allowed_domains: domainList.default([]),
  require_sso: z.boolean().default(false),
});
export type OidcSettingsInput = z.infer<typeof oidcSettingsInput>;

/** `GET /api/check_sso/{value}/` and `check_sso_by_name/{name}/`: whether and how an organization signs in. */
export const ssoCheck = z
  .object({
    sso: z.boolean(),
    /** The organization's subdomain, when it signs in with single sign-on. */
    organization: z.string().optional(),
    method: z.enum(["oidc", "saml"]).optional(),
    /** Where the browser goes to sign in. */
    login_url: z.string().optional(),
    required: z.boolean().optional(),
  })
  .meta({ id: "SsoCheck" });
export type SsoCheck = z.infer<typeof ssoCheck>;

/** `GET /api/orgs-sso-sessions/{id}/`: people holding sessions the organization's single sign-on made. */
export const ssoSession = z
  .object({
    user: z.object({
      id: z.number().int(),
      email: z.string(),
      first_name: z.string(),
      last_name: z.string(),
    }),
    sessions: z.number().int(),
    signed_in_at: z.string(),
    last_used_at: z.string().nullable(),
  })
  .meta({ id: "SsoSession" });
export type SsoSession = z.infer<typeof ssoSession>;

export const ssoSessionRevokeInput = z.object({ user: z.number().int().positive() });

/** The four SAML kinds and the multipart part that carries each one's IdP metadata file. */
export const samlKinds = ["okta", "google", "entra", "custom"] as const;
export type SamlKind = (typeof samlKinds)[number];
export const samlMetadataFields: Record<SamlKind, string> = {
  okta: "okta_sso_metadata",
  google: "google_idp_metadata",
  entra: "entra_id_metadata",
  custom: "customsso_metadata",
};

/** `GET /api/orgs-sso-{kind}/{id}/`: a SAML identity provider. The SP private key is never sent back. */
export const samlSettings = z
  .object({
    kind: z.enum(samlKinds),
    configured: z.boolean(),
    enabled: z.boolean(),
    idp_entity_id: z.string(),
    idp_sso_url: z.string(),
    /** When the first IdP signing certificate expires. */
    idp_certificate_expires: z.string().nullable(),
    metadata_url: z.string(),
    sp_certificate_set: z.boolean(),
    sp_private_key_set: z.boolean(),
    default_role: z.number().int(),
    allowed_domains: z.array(z.string()),
    require_sso: z.boolean(),
    /** What to paste into the IdP. */
    sp_entity_id: z.string(),
    acs_url: z.string(),
    sp_metadata_url: z.string(),
    login_url: z.string(),
    updated_at: z.string().nullable(),
  })
  .meta({ id: "SamlSettings" });
export type SamlSettings = z.infer<typeof samlSettings>;

/** The text parts of the multipart PUT (files: the kind's metadata, `certificate_file`, `private_key_file`). */
export const samlSettingsFields = z.object({
  metadata_url: z.string().trim().max(2000, longest(2000)).default(""),
  enabled: z
    .enum(["true", "false"])
    .default("true")
    .transform((value) => value === "true"),
  default_role: z.coerce
    .number()
    .pipe(z.union([z.literal(2), z.literal(3), z.literal(4), z.literal(5)]))
    .default(3),
  /** Comma- or space-separated. */
  allowed_domains: z
    .string()
    .default("")
    .transform((value) => value.split(/[\s,]+/).filter(Boolean))
    .pipe(domainList),
  require_sso: z
    .enum(["true", "false"])
    .default("false")
    .transform((value) => value === "true"),
});
export type SamlSettingsFields = z.infer<typeof samlSettingsFields>;

/**
 * `GET /api/orgs-sso-domains/{id}/`: an e-mail domain the organization claims. A claim counts only
 * once proven: a TXT record named `txt_name` holding `txt_value`, checked by Tarmac and re-checked
 * daily. Only a proven domain sends its people to the organization's sign-in (`check_sso`), lets
 * existing accounts in it link to the organization's provider, and makes "require SSO" apply to them.
 */
export const ssoDomain = z
  .object({
    id: z.number().int(),
    domain: z.string(),
    txt_name: z.string(),
    txt_value: z.string(),
    verified: z.boolean(),
    verified_at: z.string().nullable(),
    checked_at: z.string().nullable(),
    /** Re-checks in a row that did not find the record (the proof lapses at 3). */
    failed_checks: z.number().int(),
  })
  .meta({ id: "SsoDomain" });
export type SsoDomain = z.infer<typeof ssoDomain>;

export const ssoDomainInput = z.object({
  domain: z.string().trim().toLowerCase().min(1, "This field may not be blank.").max(253, longest(253)),
});

/**
 * `GET /api/sso/links/`: the organizations whose sign-in may open the signed-in person's account
 * (`linked`), and those the person may link (the organization proved the address's domain).
 */
export const ssoLinks = z
  .object({
    linked: z.array(
      z.object({
        organization: z.object({ id: z.number().int(), title: z.string(), subdomain: z.string() }),
        origin: z.enum(["created", "linked"]),
        since: z.string(),
      }),
    ),
    linkable: z.array(
      z.object({
        organization: z.object({ id: z.number().int(), title: z.string(), subdomain: z.string() }),
      }),
    ),
  })
  .meta({ id: "SsoLinks" });
export type SsoLinks = z.infer<typeof ssoLinks>;

/** `POST /api/sso/links/start/`: link the signed-in account (a password session) to an organization's provider. */
export const ssoLinkStartInput = z.object({ organization: z.number().int().positive() });
export const ssoRedirect = z.object({ url: z.string() });
export type SsoRedirect = z.infer<typeof ssoRedirect>;

/** `GET /api/sso/link-requests/{code}/`: what a mailed link offers to link. */
export const ssoLinkRequest = z.object({
  email: z.string(),
  organization: z.object({ title: z.string(), subdomain: z.string() }),
});
export type SsoLinkRequest = z.infer<typeof ssoLinkRequest>;

/** `POST /api/sso/link-requests/{code}/`: the account is linked; `login_url` starts the organization's sign-in. */
export const ssoLinkConfirmation = z.object({ organization: z.string(), login_url: z.string() });
export type SsoLinkConfirmation = z.infer<typeof ssoLinkConfirmation>;

/** `POST /api/sso/second-factor/`: the account's own code, after its organization's provider vouched for it. */
export const ssoSecondFactorInput = z.object({
  ticket: z.string().min(1).max(200),
  otp: z.string().trim().min(1, "This field may not be blank.").max(50),
});
export const ssoSecondFactorResult = z.object({ token: z.string(), next: z.string() });
export type SsoSecondFactorInput = z.infer<typeof ssoSecondFactorInput>;
export type SsoSecondFactorResult = z.infer<typeof ssoSecondFactorResult>;
export type SsoDomainInput = z.input<typeof ssoDomainInput>;
