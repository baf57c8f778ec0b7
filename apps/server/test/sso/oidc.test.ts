import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authHeader, createUserWithToken, distinctAddress } from "../helpers/factories.ts";
import { OidcPeer, signInAtProvider } from "../helpers/oidc-peer.ts";
import { addMember, createOrganization, setPassword } from "../helpers/org-factories.ts";
import { memberships, ssoLoginStates, users } from "../helpers/tables.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

const callback = "http://tarmac.test/api/sso/oidc/callback/";
let t: TestApp;
let peer: OidcPeer;

beforeAll(async () => {
  peer = await OidcPeer.start({
    clientId: "tarmac",
    clientSecret: "peer-secret",
    redirectUri: callback,
    accounts: {
      dana: { email: "dana@acme.test", given_name: "Dana", family_name: "Scully", email_verified: true },
      eve: { email: "eve@elsewhere.test", email_verified: true },
      hank: { email: "hank@acme.test", given_name: "Hank", family_name: "Moody", email_verified: true },
      nomail: {},
    },
  });
  t = await createTestApp({ ALLOW_PRIVATE_NETWORK_TARGETS: "true" });
}, 60_000);

afterAll(async () => {
  await t?.close();
  await peer?.close();
});

const settings = (extra: Record<string, unknown> = {}) => ({
  issuer: peer.issuer,
  client_id: "tarmac",
  client_secret: "peer-secret",
  allowed_domains: [],
  default_role: 4,
  ...extra,
});

/** An organization signing in through the peer (any e-mail domain unless given). */
async function organizationWithOidc(extra: Record<string, unknown> = {}) {
  const { organization, owner } = await createOrganization(t);
  const saved = await t.app.inject({
    method: "PATCH",
    url: `/api/orgs-oidc/${organization.id}/`,
    headers: authHeader(owner.token),
    payload: settings(extra),
  });
  expect(saved.statusCode).toBe(200);
  return { organization, owner, saved: saved.json() };
}

/** Starts at Tarmac, signs in at the provider as `login`, and comes back to Tarmac's callback. */
async function signIn(subdomain: string, login: string) {
  const start = await t.app.inject({
    url: `/api/sso/${subdomain}/start/?next=/dashboard/apps`,
    remoteAddress: distinctAddress(),
  });
  expect(start.statusCode).toBe(302);
  const back = await signInAtProvider(start.headers.location as string, login, "http://tarmac.test/");
  return t.app.inject({ url: back.pathname + back.search });
}

describe("OpenID Connect settings", () => {
  it("reads the provider's configuration before saving and never sends the secret back", async () => {
    const { organization, owner } = await createOrganization(t);
    const bad = await t.app.inject({
      method: "PATCH",
      url: `/api/orgs-oidc/${organization.id}/`,
      headers: authHeader(owner.token),
      payload: settings({ issuer: "http://127.0.0.1:1/nowhere" }),
    });
    expect(bad.statusCode).toBe(400);
    // Why, in words: not openid-client's "something went wrong".
    expect(bad.json()).toEqual({
      issuer: [
        "Could not read the provider's configuration: The connection was refused: nothing listens at this address and port.",
      ],
    });
    const { saved } = await organizationWithOidc({ allowed_domains: ["settings.test"] });
    expect(saved).toMatchObject({
      configured: true,
      enabled: true,
      issuer: peer.issuer,
      client_id: "tarmac",
      client_secret_set: true,
      allowed_domains: ["settings.test"],
      redirect_uri: callback,
    });
    expect(JSON.stringify(saved)).not.toContain("peer-secret");
    const mobile = await addMember(t, organization.id, 3);
    expect(
      (await t.app.inject({ url: `/api/orgs-oidc/${organization.id}/`, headers: authHeader(mobile.token) }))
        .statusCode,
    ).toBe(403);
  });
});

describe("signing in with OpenID Connect", () => {
  it("creates the account and membership on the first sign-in, with the e-mail from userinfo", async () => {
    const { organization } = await organizationWithOidc({ allowed_domains: ["acme.test"] });
    // Allowed domains only filter who may sign in; they claim nothing: another organization may
    // list the same, and check_sso sends nobody anywhere until a domain is proven (sso-trust.test.ts).
    const rival = await createOrganization(t);
    const listed = await t.app.inject({
      method: "PATCH",
      url: `/api/orgs-oidc/${rival.organization.id}/`,
      headers: authHeader(rival.owner.token),
      payload: settings({ allowed_domains: ["acme.test"] }),
    });
    expect(listed.statusCode).toBe(200);
    expect((await t.app.inject({ url: "/api/check_sso/dana@acme.test/" })).json()).toEqual({ sso: false });
    expect((await t.app.inject({ url: `/api/check_sso_by_name/${organization.subdomain}/` })).json()).toEqual(
      {
        sso: true,
        organization: organization.subdomain,
        method: "oidc",
        login_url: `/api/sso/${organization.subdomain}/start/`,
        required: false,
      },
    );

    const done = await signIn(organization.subdomain, "dana");
    expect(done.statusCode).toBe(302);
    expect(done.headers.location).toBe("http://tarmac.test/dashboard/apps");
    const cookie = String(done.headers["set-cookie"]);
    const token = /tarmac_token=([^;]+)/.exec(cookie)?.[1] as string;
    const profile = await t.app.inject({ url: "/api/profiles/", headers: authHeader(token) });
    expect(profile.statusCode).toBe(200);
    const [user] = await t.database.db.select().from(users).where(eq(users.email, "dana@acme.test"));
    expect(user).toMatchObject({ firstName: "Dana", lastName: "Scully", isActive: true, passwordHash: null });
    const [membership] = await t.database.db
      .select()
      .from(memberships)
      .where(eq(memberships.userId, user?.id as number));
    expect(membership).toMatchObject({ organizationId: organization.id, role: 4 });
    // A second sign-in finds the same account.
    expect((await signIn(organization.subdomain, "dana")).headers.location).toBe(
      "http://tarmac.test/dashboard/apps",
    );
    expect(await t.database.db.select().from(users).where(eq(users.email, "dana@acme.test"))).toHaveLength(1);
  });

  it("lets an admin end the sessions single sign-on made", async () => {
    const { organization, owner } = await organizationWithOidc();
    const done = await signIn(organization.subdomain, "hank");
    const token = /tarmac_token=([^;]+)/.exec(String(done.headers["set-cookie"]))?.[1] as string;
    const sessionsUrl = `/api/orgs-sso-sessions/${organization.id}/`;
    const listed = await t.app.inject({ url: sessionsUrl, headers: authHeader(owner.token) });
    expect(listed.json()).toEqual([
      {
        user: { id: expect.any(Number), email: "hank@acme.test", first_name: "Hank", last_name: "Moody" },
        sessions: 1,
        signed_in_at: expect.any(String),
        last_used_at: null,
      },
    ]);
    const hank = listed.json()[0].user.id;
    const revoke = (as: string) =>
      t.app.inject({
        method: "POST",
        url: `${sessionsUrl}revoke/`,
        headers: authHeader(as),
        payload: { user: hank },
      });
    const member = await addMember(t, organization.id, 3);
    expect((await revoke(member.token)).statusCode).toBe(403);
    expect((await revoke(owner.token)).json()).toEqual({ revoked: 1 });
    expect((await t.app.inject({ url: "/api/profiles/", headers: authHeader(token) })).statusCode).toBe(401);
    expect((await t.app.inject({ url: sessionsUrl, headers: authHeader(owner.token) })).json()).toEqual([]);
  });

  it("refuses a wrong state, a wrong nonce, an address outside the allowed domains and an account without e-mail", async () => {
    const { organization } = await organizationWithOidc({ allowed_domains: ["only-here.test"] });
    const start = await t.app.inject({ url: `/api/sso/${organization.subdomain}/start/` });
    const back = await signInAtProvider(start.headers.location as string, "dana", "http://tarmac.test/");
    const tampered = new URL(back);
    tampered.searchParams.set("state", "not-the-state");
    const wrongState = await t.app.inject({ url: tampered.pathname + tampered.search });
    expect(wrongState.headers.location).toBe("http://tarmac.test/login-custom-client?sso_error=expired");

    // The nonce the provider puts in the ID token no longer matches the one kept for the sign-in.
    await t.database.db
      .update(ssoLoginStates)
      .set({ nonce: "another-nonce" })
      .where(eq(ssoLoginStates.state, back.searchParams.get("state") as string));
    const wrongNonce = await t.app.inject({ url: back.pathname + back.search });
    expect(wrongNonce.headers.location).toBe("http://tarmac.test/login-custom-client?sso_error=provider");
    expect(String(wrongNonce.headers["set-cookie"])).not.toContain("tarmac_token=");

    expect((await signIn(organization.subdomain, "eve")).headers.location).toBe(
      "http://tarmac.test/login-custom-client?sso_error=domain",
    );
    const open = await organizationWithOidc();
    expect((await signIn(open.organization.subdomain, "nomail")).headers.location).toBe(
      "http://tarmac.test/login-custom-client?sso_error=no_email",
    );
    expect((await t.app.inject({ url: "/api/sso/no-such-org/start/" })).headers.location).toBe(
      "http://tarmac.test/login-custom-client?sso_error=unknown_organization",
    );
  });

  it("requires SSO only of accounts the organization owns: a member with an account of their own keeps the password", async () => {
    const { organization, owner } = await organizationWithOidc({ require_sso: true });
    const member = await createUserWithToken(t, { email: "frank@acme.test" });
    await addMember(t, organization.id, 3, member);
    await setPassword(t, member.user.id, "Correct-Horse-9");
    await setPassword(t, owner.user.id, "Owner-Horse-9");
    const login = (email: string, password: string) =>
      t.app.inject({ method: "POST", url: "/api/user/login/", payload: { email, password } });
    // Frank's account is his own: the organization neither made it nor proved acme.test.
    expect((await login("frank@acme.test", "Correct-Horse-9")).json()).toEqual({ mobile_only: true });
    expect((await login(owner.user.email, "Owner-Horse-9")).statusCode).toBe(200);
    const cleared = await t.app.inject({
      method: "POST",
      url: `/api/orgs-oidc/${organization.id}/clear/`,
      headers: authHeader(owner.token),
    });
    expect(cleared.json()).toMatchObject({ configured: false, require_sso: false });
  });
});
