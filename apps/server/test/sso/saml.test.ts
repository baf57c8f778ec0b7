import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { authHeader, createUserWithToken, distinctAddress } from "../helpers/factories.ts";
import { createOrganization } from "../helpers/org-factories.ts";
import {
  authnRequestId,
  type SamlVendor,
  samlIdentityProvider,
  signingPair,
  vendorMetadata,
} from "../helpers/saml-peer.ts";
import { memberships, users } from "../helpers/tables.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

const metadataFields: Record<SamlVendor, string> = {
  okta: "okta_sso_metadata",
  google: "google_idp_metadata",
  entra: "entra_id_metadata",
  custom: "customsso_metadata",
};

let t: TestApp;
const pair = signingPair();

beforeAll(async () => {
  t = await createTestApp();
}, 60_000);
afterAll(() => t?.close());

/** A multipart PUT as the settings screen sends it. */
function multipart(fields: Record<string, string>, files: Record<string, { name: string; content: string }>) {
  const boundary = "----tarmac-saml-test";
  const parts: string[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  }
  for (const [name, file] of Object.entries(files)) {
    parts.push(
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${file.name}"\r\nContent-Type: application/xml\r\n\r\n${file.content}\r\n`,
    );
  }
  parts.push(`--${boundary}--\r\n`);
  return {
    payload: parts.join(""),
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
  };
}

async function organizationWithSaml(
  vendor: SamlVendor,
  metadataXml: string,
  fields: Record<string, string> = {},
) {
  const { organization, owner } = await createOrganization(t);
  const body = multipart(
    { allowed_domains: `${vendor}.acme.test`, default_role: "5", ...fields },
    { [metadataFields[vendor]]: { name: "metadata.xml", content: metadataXml } },
  );
  const saved = await t.app.inject({
    method: "PUT",
    url: `/api/orgs-sso-${vendor}/${organization.id}/`,
    headers: { ...authHeader(owner.token), ...body.headers },
    payload: body.payload,
  });
  return { organization, owner, saved };
}

/** Starts at Tarmac; answers the request as the IdP would; posts the answer to the ACS. */
async function signIn(
  organization: { id: number; subdomain: string },
  respond: (spMetadata: string, requestId: string) => Promise<string>,
) {
  const remoteAddress = distinctAddress();
  const start = await t.app.inject({
    url: `/api/sso/${organization.subdomain}/start/?next=/dashboard/apps`,
    remoteAddress,
  });
  expect(start.statusCode).toBe(302);
  const location = start.headers.location as string;
  const relayState = new URL(location).searchParams.get("RelayState") as string;
  const spMetadata = (await t.app.inject({ url: `/api/sso/saml/${organization.id}/metadata/` })).body;
  const samlResponse = await respond(spMetadata, authnRequestId(location));
  const post = () =>
    t.app.inject({
      method: "POST",
      url: `/api/sso/saml/${organization.id}/acs/`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams({ SAMLResponse: samlResponse, RelayState: relayState }).toString(),
      remoteAddress,
    });
  return { location, answer: await post(), replay: post };
}

describe("SAML identity providers", () => {
  it.each(["okta", "google", "entra", "custom"] as const)(
    "%s: metadata read on save; a signed answer signs the person in",
    async (vendor) => {
      const shaped = vendorMetadata(vendor, pair.base64);
      const { organization, saved } = await organizationWithSaml(vendor, shaped.xml);
      expect(saved.statusCode).toBe(200);
      expect(saved.json()).toMatchObject({
        kind: vendor,
        configured: true,
        enabled: true,
        idp_entity_id: shaped.entityId,
        idp_sso_url: shaped.sso,
        sp_entity_id: `http://tarmac.test/api/sso/saml/${organization.id}/metadata/`,
        acs_url: `http://tarmac.test/api/sso/saml/${organization.id}/acs/`,
        allowed_domains: [`${vendor}.acme.test`],
        default_role: 5,
      });
      const idp = await samlIdentityProvider(shaped.xml, pair.privateKey);
      // Entra ID and Google sign only the assertion by default; Okta and most others the response.
      const signs = vendor === "entra" || vendor === "google" ? "assertion" : "response";
      const email = `pat@${vendor}.acme.test`;
      const { location, answer } = await signIn(organization, (sp, id) =>
        idp.respond(sp, id, email, { signs }),
      );
      expect(location.startsWith(shaped.sso)).toBe(true);
      expect(answer.headers.location).toBe("http://tarmac.test/dashboard/apps");
      expect(String(answer.headers["set-cookie"])).toContain("tarmac_token=");
      const [user] = await t.database.db.select().from(users).where(eq(users.email, email));
      const [membership] = await t.database.db
        .select()
        .from(memberships)
        .where(eq(memberships.userId, user?.id as number));
      expect(membership).toMatchObject({ organizationId: organization.id, role: 5 });
    },
  );

  it("refuses metadata that is expired or not an identity provider's", async () => {
    const expired = signingPair(-30, -1);
    const old = await organizationWithSaml("okta", vendorMetadata("okta", expired.base64).xml);
    expect(old.saved.statusCode).toBe(400);
    expect(old.saved.json().metadata[0]).toMatch(
      /^The identity provider's signing certificate expired on \d{4}-\d{2}-\d{2}\.$/,
    );
    const spOnly = `<EntityDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata" entityID="https://sp.test"><SPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol"/></EntityDescriptor>`;
    const wrong = await organizationWithSaml("custom", spOnly);
    expect(wrong.saved.json()).toEqual({
      metadata: ["This is not an identity provider's metadata (it has no IDPSSODescriptor)."],
    });
  });

  it.each(["okta", "google", "entra", "custom"] as const)(
    "%s: refuses an unsigned answer, a wrong key, a wrong audience, an expired assertion and a replay",
    async (vendor) => {
      const shaped = vendorMetadata(vendor, pair.base64);
      const { organization } = await organizationWithSaml(vendor, shaped.xml, { allowed_domains: "" });
      const idp = await samlIdentityProvider(shaped.xml, pair.privateKey);
      const refused = "http://tarmac.test/login-custom-client?sso_error=provider";

      const unsigned = await signIn(organization, async (sp, id) => {
        const xml = Buffer.from(await idp.respond(sp, id, `u@${vendor}.test`), "base64").toString("utf8");
        return Buffer.from(xml.replace(/<ds:Signature[\s\S]*?<\/ds:Signature>/g, "")).toString("base64");
      });
      expect(unsigned.answer.headers.location).toBe(refused);

      const stranger = signingPair();
      const impostor = await samlIdentityProvider(
        vendorMetadata("custom", stranger.base64).xml,
        stranger.privateKey,
      );
      expect(
        (await signIn(organization, (sp, id) => impostor.respond(sp, id, `w@${vendor}.test`))).answer.headers
          .location,
      ).toBe(refused);

      const elsewhere = await signIn(organization, (sp, id) =>
        idp.respond(
          sp.replace(/entityID="[^"]+"/, 'entityID="https://another-sp.test/"'),
          id,
          `a@${vendor}.test`,
        ),
      );
      expect(elsewhere.answer.headers.location).toBe(refused);

      const late = await signIn(organization, async (sp, id) => {
        // Signed by the right key, but made (and valid for five minutes) an hour ago.
        vi.useFakeTimers({ toFake: ["Date"], now: Date.now() - 60 * 60_000 });
        try {
          return await idp.respond(sp, id, `l@${vendor}.test`);
        } finally {
          vi.useRealTimers();
        }
      });
      expect(late.answer.headers.location).toBe(refused);

      const good = await signIn(organization, (sp, id) => idp.respond(sp, id, `r@${vendor}.test`));
      expect(good.answer.headers.location).toBe("http://tarmac.test/dashboard/apps");
      const again = await good.replay();
      expect(again.headers.location).toBe("http://tarmac.test/login-custom-client?sso_error=expired");
      expect(String(again.headers["set-cookie"])).not.toContain("tarmac_token=");
    },
  );
});

describe("identity providers on private addresses", () => {
  it("says the address is not a public one, for an OpenID issuer as for a metadata URL", async () => {
    const { organization, owner } = await createOrganization(t);
    const saved = await t.app.inject({
      method: "PATCH",
      url: `/api/orgs-oidc/${organization.id}/`,
      headers: authHeader(owner.token),
      payload: { issuer: "https://[::127.0.0.1]/", client_id: "x", client_secret: "y" },
    });
    expect(saved.json()).toEqual({
      issuer: ["Could not read the provider's configuration: This address is not a public one."],
    });
    const body = multipart({ metadata_url: "https://localhost/metadata.xml" }, {});
    const metadata = await t.app.inject({
      method: "PUT",
      url: `/api/orgs-sso-custom/${organization.id}/`,
      headers: { ...authHeader(owner.token), ...body.headers },
      payload: body.payload,
    });
    expect(metadata.statusCode).toBe(400);
    expect(metadata.json()).toEqual({
      metadata_url: ["Could not read the metadata: This address is not a public one."],
    });
    // An instance administrator also learns the setting that allows it on-premises.
    const admin = await createUserWithToken(t, { email: "admin@tarmac.test" });
    const { organization: own } = await createOrganization(t, { owner: admin });
    const asAdmin = await t.app.inject({
      method: "PATCH",
      url: `/api/orgs-oidc/${own.id}/`,
      headers: authHeader(admin.token),
      payload: { issuer: "https://[::127.0.0.1]/", client_id: "x", client_secret: "y" },
    });
    expect(asAdmin.json().issuer[0]).toMatch(/not a public one\. .*ALLOW_PRIVATE_NETWORK_TARGETS=true/);
  });
});
