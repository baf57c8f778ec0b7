import { X509Certificate } from "node:crypto";
import { type IdpMetadataReader, loadSamlify } from "./samlify-loader.ts";

const redirectBinding = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect";
const postBinding = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST";

/** What Tarmac needs from an identity provider's metadata. */
export interface IdpFacts {
  entityId: string;
  ssoUrl: string;
  /** PEM certificates the provider signs with. */
  certificates: string[];
  /** When the first of them stops being valid. */
  certificatesExpire: string;
}

export class MetadataError extends Error {}

function pem(base64: string): string {
  const body = base64.replace(/\s+/g, "");
  return `-----BEGIN CERTIFICATE-----\n${body.match(/.{1,64}/g)?.join("\n") ?? ""}\n-----END CERTIFICATE-----\n`;
}

function firstUrl(value: unknown): string {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return firstUrl(value[0]);
  if (value && typeof value === "object") return firstUrl(Object.values(value)[0]);
  return "";
}

/**
 * Reads IdP metadata: its entity id, where sign-ins go (redirect binding preferred), and its
 * signing certificates, refusing metadata that is not an identity provider's, has no way in, or
 * whose certificates have expired.
 */
export async function readIdpMetadata(xml: string, now = new Date()): Promise<IdpFacts> {
  if (!/<(\w+:)?IDPSSODescriptor[\s>]/.test(xml)) {
    throw new MetadataError("This is not an identity provider's metadata (it has no IDPSSODescriptor).");
  }
  const { IdPMetadata } = await loadSamlify();
  let metadata: IdpMetadataReader;
  try {
    metadata = IdPMetadata(xml);
  } catch (error) {
    throw new MetadataError(`The metadata could not be read: ${(error as Error).message.split("\n")[0]}`);
  }
  const entityId = metadata.getEntityID();
  if (!entityId) throw new MetadataError("The metadata names no entity.");
  const ssoUrl =
    firstUrl(metadata.getSingleSignOnService(redirectBinding)) ||
    firstUrl(metadata.getSingleSignOnService(postBinding));
  if (!/^https?:\/\//.test(ssoUrl))
    throw new MetadataError("The metadata has no SingleSignOnService to send people to.");
  const raw = metadata.getX509Certificate("signing");
  const encoded = (Array.isArray(raw) ? raw : [raw]).filter(
    (value): value is string => typeof value === "string" && value.length > 0,
  );
  if (encoded.length === 0) throw new MetadataError("The metadata has no signing certificate.");
  const certificates = encoded.map(pem);
  let earliest = Number.POSITIVE_INFINITY;
  for (const certificate of certificates) {
    let parsed: X509Certificate;
    try {
      parsed = new X509Certificate(certificate);
    } catch {
      throw new MetadataError("A signing certificate in the metadata could not be read.");
    }
    const validTo = new Date(parsed.validTo);
    if (validTo.getTime() <= now.getTime()) {
      throw new MetadataError(
        `The identity provider's signing certificate expired on ${validTo.toISOString().slice(0, 10)}.`,
      );
    }
    earliest = Math.min(earliest, validTo.getTime());
  }
  return { entityId, ssoUrl, certificates, certificatesExpire: new Date(earliest).toISOString() };
}
