import { generateKeyPairSync, randomUUID } from "node:crypto";
import forge from "node-forge";
import {
  type IdentityProviderInstance,
  loadSamlify,
  type SamlifyEntity,
} from "../../src/modules/sso/samlify-loader.ts";

export type SamlVendor = "okta" | "google" | "entra" | "custom";

/** A signing key and a self-signed certificate valid from `fromDays` to `toDays` around now. */
export function signingPair(fromDays = -1, toDays = 365) {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const privatePem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  const certificate = forge.pki.createCertificate();
  certificate.publicKey = forge.pki.publicKeyFromPem(
    publicKey.export({ type: "spki", format: "pem" }).toString(),
  );
  certificate.serialNumber = "0a1b2c";
  certificate.validity.notBefore = new Date(Date.now() + fromDays * 86_400_000);
  certificate.validity.notAfter = new Date(Date.now() + toDays * 86_400_000);
  const subject = [{ name: "commonName", value: "Test IdP" }];
  certificate.setSubject(subject);
  certificate.setIssuer(subject);
  certificate.sign(forge.pki.privateKeyFromPem(privatePem), forge.md.sha256.create());
  const pem = forge.pki.certificateToPem(certificate);
  return { privateKey: privatePem, certificate: pem, base64: pem.replace(/-----[^-]+-----|\s/g, "") };
}

const bindings = {
  redirect: "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect",
  post: "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST",
};

/** IdP metadata shaped the way each vendor publishes it (prefixes, extra descriptors, NameID formats). */
export function vendorMetadata(vendor: SamlVendor, certificateBase64: string) {
  const keyInfo = (prefix: string) =>
    `<${prefix}KeyInfo xmlns${prefix ? ":ds" : ""}="http://www.w3.org/2000/09/xmldsig#"><${prefix}X509Data><${prefix}X509Certificate>${certificateBase64}</${prefix}X509Certificate></${prefix}X509Data></${prefix}KeyInfo>`;
  if (vendor === "okta") {
    const entityId = "http://www.okta.com/exk1tarmac0okta";
    const sso = "https://acme.okta.com/app/acme_tarmac_1/exk1tarmac0okta/sso/saml";
    return {
      entityId,
      sso,
      xml: `<?xml version="1.0" encoding="UTF-8"?><md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${entityId}"><md:IDPSSODescriptor WantAuthnRequestsSigned="false" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol"><md:KeyDescriptor use="signing">${keyInfo("ds:")}</md:KeyDescriptor><md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified</md:NameIDFormat><md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat><md:SingleSignOnService Binding="${bindings.post}" Location="${sso}"/><md:SingleSignOnService Binding="${bindings.redirect}" Location="${sso}"/></md:IDPSSODescriptor></md:EntityDescriptor>`,
    };
  }
  if (vendor === "google") {
    const entityId = "https://accounts.google.com/o/saml2?idpid=C01tarmac";
    const sso = "https://accounts.google.com/o/saml2/idp?idpid=C01tarmac";
    return {
      entityId,
      sso,
      xml: `<?xml version="1.0" encoding="UTF-8" standalone="no"?><md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${entityId}" validUntil="2031-11-20T10:00:00.000Z"><md:IDPSSODescriptor WantAuthnRequestsSigned="false" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol"><md:KeyDescriptor use="signing">${keyInfo("ds:")}</md:KeyDescriptor><md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat><md:SingleSignOnService Binding="${bindings.redirect}" Location="${sso}"/><md:SingleSignOnService Binding="${bindings.post}" Location="${sso}"/></md:IDPSSODescriptor></md:EntityDescriptor>`,
    };
  }
  if (vendor === "entra") {
    const tenant = "7a1c9f0e-3b5d-4e2a-9c8b-1f2e3d4c5b6a";
    const entityId = `https://sts.windows.net/${tenant}/`;
    const sso = `https://login.microsoftonline.com/${tenant}/saml2`;
    return {
      entityId,
      sso,
      xml: `<?xml version="1.0" encoding="utf-8"?><EntityDescriptor ID="_5f2b0c6e-1d4a-4b8e-9f3a-2c1d0e9f8a7b" entityID="${entityId}" xmlns="urn:oasis:names:tc:SAML:2.0:metadata"><RoleDescriptor xsi:type="fed:SecurityTokenServiceType" protocolSupportEnumeration="http://docs.oasis-open.org/wsfed/federation/200706" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:fed="http://docs.oasis-open.org/wsfed/federation/200706"><KeyDescriptor use="signing">${keyInfo("")}</KeyDescriptor></RoleDescriptor><IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol"><KeyDescriptor use="signing">${keyInfo("")}</KeyDescriptor><SingleLogoutService Binding="${bindings.redirect}" Location="${sso}"/><SingleSignOnService Binding="${bindings.redirect}" Location="${sso}"/><SingleSignOnService Binding="${bindings.post}" Location="${sso}"/></IDPSSODescriptor></EntityDescriptor>`,
    };
  }
  const entityId = "https://idp.example.test/metadata";
  const sso = "https://idp.example.test/sso";
  return {
    entityId,
    sso,
    xml: `<?xml version="1.0"?><EntityDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${entityId}"><IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol"><KeyDescriptor>${keyInfo("")}</KeyDescriptor><SingleSignOnService Binding="${bindings.redirect}" Location="${sso}"/></IDPSSODescriptor></EntityDescriptor>`,
  };
}

export { authnRequestIdOf as authnRequestId } from "../../src/modules/sso/saml-client.ts";

/**
 * A samlify identity provider with the vendor's metadata and key. `signs` says what it signs:
 * the whole response (Okta, most providers) or only the assertion (Entra ID and Google by default).
 */
export async function samlIdentityProvider(metadataXml: string, privateKey: string) {
  const samlify = await loadSamlify();
  const idp: IdentityProviderInstance = samlify.IdentityProvider({
    metadata: metadataXml,
    privateKey,
    isAssertionEncrypted: false,
  });
  return {
    /**
     * A signed login response for `email`, answering `requestId`, for the SP of `spMetadata`.
     * `tamper` replaces values of samlify's response template (Issuer, Destination,
     * SubjectRecipient, InResponseTo...) before signing: a provider that signs what it should not.
     */
    async respond(
      spMetadata: string,
      requestId: string,
      email: string,
      options: { signs: "response" | "assertion"; tamper?: Record<string, string> } = { signs: "response" },
    ): Promise<string> {
      const wantsAssertions = options.signs === "assertion";
      const metadata = spMetadata.replace(
        /WantAssertionsSigned="\w+"/,
        `WantAssertionsSigned="${wantsAssertions}"`,
      );
      const sp: SamlifyEntity = samlify.ServiceProvider({ metadata, wantMessageSigned: !wantsAssertions });
      const tamper = options.tamper;
      const response = await idp.createLoginResponse(
        sp,
        { extract: { request: { id: requestId } } },
        "post",
        { email },
        tamper
          ? (template) => ({
              id: "",
              context: fillTemplate(
                template,
                responseValues(metadataXml, spMetadata, requestId, email, tamper),
              ),
            })
          : undefined,
      );
      return response.context;
    },
  };
}

function attributeOf(xml: string, pattern: RegExp): string {
  return pattern.exec(xml)?.[1] ?? "";
}

/** The values samlify puts in its login response template, with `tamper` over them. */
function responseValues(
  idpMetadata: string,
  spMetadata: string,
  requestId: string,
  email: string,
  tamper: Record<string, string>,
): Record<string, string> {
  const now = new Date();
  const later = new Date(now.getTime() + 5 * 60_000).toISOString();
  const acs = attributeOf(spMetadata, /AssertionConsumerService[^>]*Location="([^"]+)"/);
  const spEntityId = attributeOf(spMetadata, /entityID="([^"]+)"/);
  return {
    ID: `_${randomUUID()}`,
    AssertionID: `_${randomUUID()}`,
    Destination: acs,
    Audience: spEntityId,
    EntityID: spEntityId,
    SubjectRecipient: acs,
    Issuer: attributeOf(idpMetadata, /entityID="([^"]+)"/),
    IssueInstant: now.toISOString(),
    AssertionConsumerServiceURL: acs,
    StatusCode: "urn:oasis:names:tc:SAML:2.0:status:Success",
    ConditionsNotBefore: now.toISOString(),
    ConditionsNotOnOrAfter: later,
    SubjectConfirmationDataNotOnOrAfter: later,
    NameIDFormat: "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress",
    NameID: email,
    InResponseTo: requestId,
    AuthnStatement: "",
    AttributeStatement: "",
    ...tamper,
  };
}

function fillTemplate(template: string, values: Record<string, string>): string {
  const escapeXml = (value: string) =>
    value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
  return template.replace(/\{(\w+)\}/g, (whole, key: string) =>
    key in values ? escapeXml(values[key] as string) : whole,
  );
}
