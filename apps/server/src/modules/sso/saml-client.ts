import { inflateRawSync } from "node:zlib";
import { SAML, ValidateInResponseTo } from "@node-saml/node-saml";
import type { Database } from "../../platform/db/client.ts";
import type { IdpFacts } from "./saml-metadata.ts";
import { samlRequestCache } from "./sso.repo.ts";

/** A sign-in request may be answered within this long. */
export const samlRequestMaxAgeMs = 10 * 60 * 1000;
/** Clocks of the provider and this server may differ by this much, no more. */
const clockSkewMs = 2 * 60 * 1000;

export interface SamlConnectionSettings extends IdpFacts {
  metadataUrl: string;
  /** The SP's signing certificate (PEM), when the organization gave one. */
  spCertificate: string | null;
}

/** Where the identity provider finds this organization (by id: a renamed subdomain breaks nothing). */
export function samlEndpoints(publicUrl: string, organizationId: number) {
  const base = `${publicUrl}/api/sso/saml/${organizationId}`;
  return { entityId: `${base}/metadata/`, acsUrl: `${base}/acs/`, metadataUrl: `${base}/metadata/` };
}

/**
 * The service provider for one organization's SAML connection: signed responses or assertions
 * required, audience and recipient checked, clock skew bounded, InResponseTo always checked
 * against requests kept in the database.
 */
export function samlServiceProvider(
  db: Database,
  options: {
    publicUrl: string;
    organizationId: number;
    settings: SamlConnectionSettings;
    spPrivateKey: string | null;
  },
) {
  const { entityId, acsUrl } = samlEndpoints(options.publicUrl, options.organizationId);
  return new SAML({
    callbackUrl: acsUrl,
    entryPoint: options.settings.ssoUrl,
    issuer: entityId,
    audience: entityId,
    idpIssuer: options.settings.entityId,
    idpCert: options.settings.certificates,
    // Either signature will do (Entra ID and Google sign only the assertion by default).
    wantAuthnResponseSigned: false,
    wantAssertionsSigned: false,
    acceptedClockSkewMs: clockSkewMs,
    maxAssertionAgeMs: samlRequestMaxAgeMs,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: samlRequestMaxAgeMs,
    cacheProvider: samlRequestCache(db, samlRequestMaxAgeMs),
    identifierFormat: "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress",
    disableRequestedAuthnContext: true,
    signatureAlgorithm: "sha256",
    ...(options.spPrivateKey ? { privateKey: options.spPrivateKey } : {}),
  });
}

const emailAttributes = [
  "email",
  "mail",
  "emailAddress",
  "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress",
  "urn:oid:0.9.2342.19200300.100.1.3",
];
const firstNameAttributes = [
  "firstName",
  "givenName",
  "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname",
  "urn:oid:2.5.4.42",
];
const lastNameAttributes = [
  "lastName",
  "surname",
  "sn",
  "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname",
  "urn:oid:2.5.4.4",
];

function attribute(profile: Record<string, unknown>, names: string[]): string {
  for (const name of names) {
    const value = profile[name];
    const text = Array.isArray(value) ? value[0] : value;
    if (typeof text === "string" && text.trim()) return text.trim();
  }
  return "";
}

/** The person an assertion names: e-mail from the usual attributes, else an e-mail NameID. */
export function personOfProfile(profile: Record<string, unknown>) {
  const nameId = typeof profile.nameID === "string" ? profile.nameID : "";
  const email = (attribute(profile, emailAttributes) || (nameId.includes("@") ? nameId : "")).toLowerCase();
  return {
    email,
    firstName: attribute(profile, firstNameAttributes),
    lastName: attribute(profile, lastNameAttributes),
  };
}

/** The assertion's own ID (for the replay cache), read from its XML. */
export function assertionIdOf(assertionXml: string): string | null {
  return /<(?:\w+:)?Assertion\b[^>]*\bID="([^"]+)"/.exec(assertionXml)?.[1] ?? null;
}

/** The ID of the AuthnRequest a redirect-binding URL carries ("" when it carries none). */
export function authnRequestIdOf(url: URL | string): string {
  const request = new URL(url).searchParams.get("SAMLRequest") ?? "";
  try {
    const xml = inflateRawSync(Buffer.from(request, "base64")).toString("utf8");
    return /\bID="([^"]+)"/.exec(xml)?.[1] ?? "";
  } catch {
    return "";
  }
}
