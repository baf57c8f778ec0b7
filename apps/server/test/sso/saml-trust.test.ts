import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { screenSamlResponse } from "../../src/modules/sso/saml-answer.ts";
import { createUserWithPassword } from "../accounts/helpers.ts";
import { authHeader, distinctAddress } from "../helpers/factories.ts";
import { createOrganization, type TestUser } from "../helpers/org-factories.ts";
import { authnRequestId, samlIdentityProvider, signingPair, vendorMetadata } from "../helpers/saml-peer.ts";
import { ssoLoginStates, users } from "../helpers/tables.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

// The organization's SAML provider signs with the organization's own key: it can assert anything.
let t: TestApp;
const pair = signingPair();
const shaped = vendorMetadata("custom", pair.base64);
let idp: Awaited<ReturnType<typeof samlIdentityProvider>>;
let organization: { id: number; subdomain: string };
const refused = (reason: string) => `http://tarmac.test/login-custom-client?sso_error=${reason}`;

beforeAll(async () => {
  t = await createTestApp({ ADMIN_EMAILS: "admin@tarmac.test,sleepy@tarmac.test" });
  idp = await samlIdentityProvider(shaped.xml, pair.privateKey);
  const created = await createOrganization(t);
  organization = created.organization;
  const boundary = "----saml-trust";
  const body = [
    `--${boundary}\r\nContent-Disposition: form-data; name="allowed_domains"\r\n\r\n\r\n`,
    `--${boundary}\r\nContent-Disposition: form-data; name="customsso_metadata"; filename="idp.xml"\r\nContent-Type: application/xml\r\n\r\n${shaped.xml}\r\n`,
    `--${boundary}--\r\n`,
  ].join("");
  const saved = await t.app.inject({
    method: "PUT",
    url: `/api/orgs-sso-custom/${organization.id}/`,
    headers: {
      ...authHeader(created.owner.token),
      "content-type": `multipart/form-data; boundary=${boundary}`,
    },
    payload: body,
  });
  expect(saved.statusCode).toBe(200);
}, 60_000);
afterAll(() => t?.close());

async function start(remoteAddress = distinctAddress()) {
  const started = await t.app.inject({ url: `/api/sso/${organization.subdomain}/start/`, remoteAddress });
  const location = started.headers.location as string;
  return {
    remoteAddress,
    relayState: new URL(location).searchParams.get("RelayState") as string,
    requestId: authnRequestId(location),
  };
}

const spMetadata = async () =>
  (await t.app.inject({ url: `/api/sso/saml/${organization.id}/metadata/` })).body;

function post(samlResponse: string, relayState: string, remoteAddress: string) {
  return t.app.inject({
    method: "POST",
    url: `/api/sso/saml/${organization.id}/acs/`,
    headers: { "content-type": "application/x-www-form-urlencoded" },
    payload: new URLSearchParams({ SAMLResponse: samlResponse, RelayState: relayState }).toString(),
    remoteAddress,
  });
}

async function answer(email: string, tamper?: Record<string, string>) {
  const flow = await start();
  const response = await idp.respond(await spMetadata(), flow.requestId, email, {
    signs: "response",
    ...(tamper ? { tamper } : {}),
  });
  return post(response, flow.relayState, flow.remoteAddress);
}

describe("SAML: an organization's provider opens no account it does not own", () => {
  it("refuses another organization's owner, an administrator, an unactivated administrator and a two-factor user", async () => {
    const victim = await createUserWithPassword(t, "owner@victim.test");
    await createOrganization(t, { owner: { user: victim, token: "", tokenId: 0 } as TestUser });
    await createUserWithPassword(t, "admin@tarmac.test");
    const sleepy = await createUserWithPassword(t, "sleepy@tarmac.test");
    await t.database.db.update(users).set({ isActive: false }).where(eq(users.id, sleepy.id));
    const twofa = await createUserWithPassword(t, "twofa@victim.test");
    await t.database.db.update(users).set({ twoFactorEnabled: true }).where(eq(users.id, twofa.id));
    for (const email of [
      "owner@victim.test",
      "admin@tarmac.test",
      "sleepy@tarmac.test",
      "twofa@victim.test",
    ]) {
      const reply = await answer(email);
      expect(reply.headers.location, email).toBe(refused("not_owned"));
      expect(String(reply.headers["set-cookie"]), email).not.toContain("tarmac_token=");
    }
    const [still] = await t.database.db.select().from(users).where(eq(users.id, sleepy.id));
    expect(still?.isActive).toBe(false);
    // The same provider still signs in a new person of its own.
    expect((await answer("new.person@own.test")).headers.location).toBe("http://tarmac.test/dashboard");
  });
});

describe("SAML: what the signature covers must also be addressed to this sign-in", () => {
  it("refuses a wrong Recipient, Destination or Issuer, and an answer to another sign-in's request", async () => {
    const elsewhere = "https://elsewhere.test/acs";
    expect((await answer("r1@own.test", { SubjectRecipient: elsewhere })).headers.location).toBe(
      refused("provider"),
    );
    expect((await answer("r2@own.test", { Destination: elsewhere })).headers.location).toBe(
      refused("provider"),
    );
    expect((await answer("r3@own.test", { Issuer: "https://another-idp.test/" })).headers.location).toBe(
      refused("provider"),
    );
    // Two sign-ins under way; the answer to the second is posted with the first one's state.
    const first = await start();
    const second = await start();
    const crossed = await idp.respond(await spMetadata(), second.requestId, "r4@own.test");
    expect((await post(crossed, first.relayState, first.remoteAddress)).headers.location).toBe(
      refused("provider"),
    );
    // Untampered, the same provider's answer is taken.
    expect((await answer("r5@own.test")).headers.location).toBe("http://tarmac.test/dashboard");
  });

  it("screens the posted answer before parsing it: size, nesting and document types", async () => {
    const flow = await start();
    const deep = Buffer.from(
      `<samlp:Response>${"<a>".repeat(5000)}${"</a>".repeat(5000)}</samlp:Response>`,
    ).toString("base64");
    const hidden = Buffer.from(`<r>${'<a x="/>">'.repeat(100)}${"</a>".repeat(100)}</r>`).toString("base64");
    const doctype = Buffer.from('<!DOCTYPE r [<!ENTITY e "x">]><r>&e;</r>').toString("base64");
    for (const body of [deep, hidden, doctype]) {
      expect((await post(body, flow.relayState, flow.remoteAddress)).headers.location).toBe(
        refused("provider"),
      );
    }
    // The screen's own verdicts (what it costs is measured by `BENCH_ONLY=sso npm run bench`).
    expect([deep, hidden, doctype].map((body) => screenSamlResponse(body))).toEqual([
      "nested too deeply",
      "nested too deeply",
      "document type",
    ]);
    // The sign-in those posts named is still there: a screened post does not use it up.
    const [state] = await t.database.db
      .select()
      .from(ssoLoginStates)
      .where(eq(ssoLoginStates.state, flow.relayState));
    expect(state).toBeDefined();
    const oversize = await post("A".repeat(400_000), flow.relayState, flow.remoteAddress);
    expect(oversize.headers.location).toBe(refused("provider"));
  });
});

describe("SAML: throttled per client address", () => {
  it("sends the browser back with the reason and Retry-After once an address starts or posts more sign-ins than a person would", async () => {
    const throttled = refused("throttled");
    const address = distinctAddress();
    const starts: string[] = [];
    for (let index = 0; index < 31; index += 1) {
      const answer = await t.app.inject({
        url: `/api/sso/${organization.subdomain}/start/`,
        remoteAddress: address,
      });
      starts.push(String(answer.headers.location));
      if (index === 30) expect(Number(answer.headers["retry-after"])).toBeGreaterThan(0);
    }
    expect(starts.slice(0, 30).some((location) => location === throttled)).toBe(false);
    expect(starts[30]).toBe(throttled);
    // A throttled start writes no sign-in state.
    const states = await t.database.db
      .select()
      .from(ssoLoginStates)
      .where(eq(ssoLoginStates.organizationId, organization.id));
    const postsFrom = distinctAddress();
    const posts: string[] = [];
    for (let index = 0; index < 31; index += 1) {
      posts.push(String((await post("PHIvPg==", "none", postsFrom)).headers.location));
    }
    expect(posts.slice(0, 30).every((location) => location === refused("expired"))).toBe(true);
    expect(posts[30]).toBe(throttled);
    await t.app.inject({ url: `/api/sso/${organization.subdomain}/start/`, remoteAddress: address });
    const after = await t.database.db
      .select()
      .from(ssoLoginStates)
      .where(eq(ssoLoginStates.organizationId, organization.id));
    expect(after.length).toBe(states.length);
  });
});
