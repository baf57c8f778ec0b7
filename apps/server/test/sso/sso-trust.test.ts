import { eq } from "drizzle-orm";
import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DomainClaimsService } from "../../src/modules/sso/sso-domains.service.ts";
import { codeFromMail, createUserWithPassword, strongPassword, waitForMail } from "../accounts/helpers.ts";
import { DnsPeer } from "../helpers/dns-peer.ts";
import { authHeader, distinctAddress } from "../helpers/factories.ts";
import { OidcPeer, signInAtProvider } from "../helpers/oidc-peer.ts";
import { addMember, createOrganization, type TestUser } from "../helpers/org-factories.ts";
import { memberships, users } from "../helpers/tables.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

// An organization's identity provider is the attacker here: it may assert any address at all.
const callback = "http://tarmac.test/api/sso/oidc/callback/";
const refused = (reason: string) => `http://tarmac.test/login-custom-client?sso_error=${reason}`;
let t: TestApp;
let peer: OidcPeer;
let dns: DnsPeer;

beforeAll(async () => {
  dns = await DnsPeer.start();
  peer = await OidcPeer.start({
    clientId: "tarmac",
    clientSecret: "peer-secret",
    redirectUri: callback,
    accounts: {
      victim: { email: "victim@corp.test", email_verified: true },
      admin: { email: "admin@tarmac.test", email_verified: true },
      sleepy: { email: "sleepy@tarmac.test", email_verified: true },
      twofa: { email: "twofa@corp.test", email_verified: true },
      fresh: { email: "newadmin@tarmac.test", given_name: "New", email_verified: true },
      dana: { email: "dana@acme.test", email_verified: true },
      eve: { email: "eve@acme.test", email_verified: true },
      grace: { email: "grace@acme.test", email_verified: true },
      ...Object.fromEntries(
        Array.from({ length: 6 }, (_, index) => [`crowd${index}`, { email: `crowd${index}@crowd.test` }]),
      ),
    },
  });
  t = await createTestApp({
    ALLOW_PRIVATE_NETWORK_TARGETS: "true",
    ADMIN_EMAILS: "admin@tarmac.test,sleepy@tarmac.test,newadmin@tarmac.test",
    DNS_SERVERS: dns.server,
  });
  await t.platform.jobs.work({ pollingIntervalSeconds: 0.5 });
}, 60_000);

afterAll(async () => {
  await t?.close();
  await peer?.close();
  await dns?.close();
});

const call = (token: string, method: "GET" | "POST" | "PATCH" | "DELETE", url: string, payload?: object) =>
  t.app.inject({ method, url, headers: authHeader(token), ...(payload ? { payload } : {}) });

/** An organization whose sign-in is the peer (any address), optionally requiring it. */
async function organizationWithOidc(extra: Record<string, unknown> = {}, plan?: string) {
  const { organization, owner } = await createOrganization(t, plan ? { plan } : {});
  const saved = await call(owner.token, "PATCH", `/api/orgs-oidc/${organization.id}/`, {
    issuer: peer.issuer,
    client_id: "tarmac",
    client_secret: "peer-secret",
    allowed_domains: [],
    default_role: 3,
    ...extra,
  });
  expect(saved.statusCode).toBe(200);
  return { organization, owner };
}

/** Claims the domain for the organization and proves it through the test's DNS server. */
async function proveDomain(ownerToken: string, organizationId: number, domain: string) {
  const claim = await call(ownerToken, "POST", `/api/orgs-sso-domains/${organizationId}/`, { domain });
  expect(claim.statusCode).toBe(201);
  dns.setTxt(claim.json().txt_name, [claim.json().txt_value, "v=spf1 -all"]);
  const verified = await call(
    ownerToken,
    "POST",
    `/api/orgs-sso-domains/${organizationId}/${claim.json().id}/verify/`,
  );
  expect(verified.json()).toMatchObject({ verified: true, failed_checks: 0 });
  return claim.json() as { id: number; txt_name: string; txt_value: string };
}

/** Starts at Tarmac, signs in at the provider as `login`, and comes back to Tarmac's callback. */
async function signIn(subdomain: string, login: string) {
  const start = await t.app.inject({ url: `/api/sso/${subdomain}/start/`, remoteAddress: distinctAddress() });
  expect(start.statusCode).toBe(302);
  const back = await signInAtProvider(start.headers.location as string, login, "http://tarmac.test/");
  return t.app.inject({ url: back.pathname + back.search });
}

const sessionOf = (answer: { headers: Record<string, unknown> }) =>
  /tarmac_token=([^;]+)/.exec(String(answer.headers["set-cookie"]))?.[1];

async function accountOf(email: string) {
  const [row] = await t.database.db.select().from(users).where(eq(users.email, email));
  return row;
}

/** Turns on the person's second factor; returns a recovery code. */
async function enableTwoFactor(token: string): Promise<string> {
  const key = (await call(token, "GET", "/api/user/get-2fa-key/")).json();
  const enabled = await call(token, "POST", "/api/user/check-2fa-token/", {
    token: await generate({ secret: key.secret, epoch: Math.floor(Date.now() / 1000) }),
  });
  expect(enabled.statusCode).toBe(200);
  return enabled.json().recovery_codes[0];
}

async function passwordSession(email: string): Promise<string> {
  const login = await t.app.inject({
    method: "POST",
    url: "/api/user/login/",
    payload: { email, password: strongPassword },
  });
  expect(login.json()).toEqual({ token: expect.any(String) });
  return login.json().token;
}

describe("an organization's provider opens no account it does not own", () => {
  it("refuses another organization's owner, an administrator, an unactivated administrator and a two-factor user", async () => {
    const victim = await createUserWithPassword(t, "victim@corp.test");
    await createOrganization(t, { owner: { user: victim, token: "", tokenId: 0 } as TestUser });
    await createUserWithPassword(t, "admin@tarmac.test");
    const sleepy = await createUserWithPassword(t, "sleepy@tarmac.test");
    await t.database.db.update(users).set({ isActive: false }).where(eq(users.id, sleepy.id));
    await createUserWithPassword(t, "twofa@corp.test");
    await enableTwoFactor(await passwordSession("twofa@corp.test"));

    const attacker = await organizationWithOidc({ require_sso: true });
    // Claims alone change nothing: the attacker cannot prove these domains.
    for (const domain of ["corp.test", "tarmac.test"]) {
      expect(
        (
          await call(attacker.owner.token, "POST", `/api/orgs-sso-domains/${attacker.organization.id}/`, {
            domain,
          })
        ).statusCode,
      ).toBe(201);
    }
    for (const login of ["victim", "admin", "sleepy", "twofa"]) {
      const answer = await signIn(attacker.organization.subdomain, login);
      expect(answer.headers.location, login).toBe(refused("not_owned"));
      expect(sessionOf(answer), login).toBeUndefined();
    }
    expect((await accountOf("sleepy@tarmac.test"))?.isActive).toBe(false);
    for (const email of ["victim@corp.test", "admin@tarmac.test", "sleepy@tarmac.test", "twofa@corp.test"]) {
      const account = await accountOf(email);
      const rows = await t.database.db
        .select()
        .from(memberships)
        .where(eq(memberships.userId, account?.id as number));
      expect(
        rows.map((row) => row.organizationId),
        email,
      ).not.toContain(attacker.organization.id);
    }
    // Nor does check_sso send anyone of those domains to the attacker.
    expect((await t.app.inject({ url: "/api/check_sso/victim@corp.test/" })).json()).toEqual({ sso: false });
  });

  it("signs in an account it created, but never as an administrator, and loses it to whoever proves the mailbox", async () => {
    const attacker = await organizationWithOidc({ default_role: 2 });
    const first = await signIn(attacker.organization.subdomain, "fresh");
    expect(first.headers.location).toBe("http://tarmac.test/dashboard");
    const token = sessionOf(first) as string;
    expect((await call(token, "GET", "/api/admin/outbox/")).statusCode).toBe(403);
    const membership = (await call(token, "GET", `/api/usersinorgs/?org=${attacker.organization.id}`))
      .json()
      .results.find((row: { email: string }) => row.email === "newadmin@tarmac.test");
    const key = (await call(token, "GET", `/api/usersinorgs/${membership.id}/?newapikey=1`)).json().api_key;
    expect((await call(key, "GET", "/api/admin/outbox/")).statusCode).toBe(403);

    // The address's real owner resets the password from the mailbox and takes the account.
    await t.app.inject({
      method: "POST",
      url: "/api/user/password/update/",
      payload: { email: "newadmin@tarmac.test" },
    });
    const [mail] = await waitForMail(t, "newadmin@tarmac.test");
    const reset = await t.app.inject({
      method: "POST",
      url: "/api/user/password/update/",
      payload: {
        code: codeFromMail(mail as NonNullable<typeof mail>),
        password: strongPassword,
        revoke_api_keys: true,
      },
    });
    expect(reset.statusCode).toBe(200);
    expect((await signIn(attacker.organization.subdomain, "fresh")).headers.location).toBe(
      refused("not_owned"),
    );
    expect(
      (await call(await passwordSession("newadmin@tarmac.test"), "GET", "/api/admin/outbox/")).statusCode,
    ).toBe(200);
  });
});

describe("a proven domain", () => {
  let acme: Awaited<ReturnType<typeof organizationWithOidc>>;

  beforeAll(async () => {
    acme = await organizationWithOidc();
    await proveDomain(acme.owner.token, acme.organization.id, "acme.test");
  });

  it("routes check_sso, mails the person a link, and still asks for the account's own second factor", async () => {
    expect((await t.app.inject({ url: "/api/check_sso/dana@acme.test/" })).json()).toMatchObject({
      sso: true,
      organization: acme.organization.subdomain,
    });
    const dana = await createUserWithPassword(t, "dana@acme.test");
    const recovery = await enableTwoFactor(await passwordSession(dana.email));
    const before = await signIn(acme.organization.subdomain, "dana");
    expect(before.headers.location).toBe(refused("link_sent"));
    expect(sessionOf(before)).toBeUndefined();
    const [mail] = await waitForMail(t, "dana@acme.test");
    expect(mail?.subject).toBe(`Link your Tarmac account to ${acme.organization.title}'s sign-in?`);
    const code = /sso_link=([\w-]+)/.exec(mail?.text ?? "")?.[1] as string;
    expect((await t.app.inject({ url: `/api/sso/link-requests/${code}/` })).json()).toEqual({
      email: "dana@acme.test",
      organization: { title: acme.organization.title, subdomain: acme.organization.subdomain },
    });
    const confirmed = await t.app.inject({ method: "POST", url: `/api/sso/link-requests/${code}/` });
    expect(confirmed.json()).toEqual({
      organization: acme.organization.subdomain,
      login_url: `/api/sso/${acme.organization.subdomain}/start/`,
    });
    expect((await t.app.inject({ method: "POST", url: `/api/sso/link-requests/${code}/` })).statusCode).toBe(
      404,
    );

    const after = await signIn(acme.organization.subdomain, "dana");
    expect(sessionOf(after)).toBeUndefined();
    const ticket = /sso_second_factor=([\w-]+)/.exec(String(after.headers.location))?.[1] as string;
    expect(ticket).toBeTruthy();
    const finish = (otp: string) =>
      t.app.inject({ method: "POST", url: "/api/sso/second-factor/", payload: { ticket, otp } });
    expect((await finish("000000")).json()).toEqual({ otp: ["Invalid code."] });
    const done = await finish(recovery);
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ token: expect.any(String), next: "/dashboard" });
    expect((await call(done.json().token, "GET", "/api/profiles/")).statusCode).toBe(200);
    expect((await finish(recovery)).statusCode).toBe(400);
  });

  it("links from a password session only, and only to the address the provider names", async () => {
    const eve = await createUserWithPassword(t, "eve@acme.test");
    const session = await passwordSession(eve.email);
    const links = (await call(session, "GET", "/api/sso/links/")).json();
    expect(links).toEqual({
      linked: [],
      linkable: [
        {
          organization: {
            id: acme.organization.id,
            title: acme.organization.title,
            subdomain: acme.organization.subdomain,
          },
        },
      ],
    });
    const start = async (as: string) =>
      call(as, "POST", "/api/sso/links/start/", { organization: acme.organization.id });
    // The provider names someone else: nothing is linked.
    const wrong = await signInAtProvider((await start(session)).json().url, "grace", "http://tarmac.test/");
    expect((await t.app.inject({ url: wrong.pathname + wrong.search })).headers.location).toBe(
      refused("link_mismatch"),
    );
    const back = await signInAtProvider((await start(session)).json().url, "eve", "http://tarmac.test/");
    const linked = await t.app.inject({ url: back.pathname + back.search });
    expect(linked.headers.location).toBe(
      `http://tarmac.test/dashboard/profile?sso_linked=${acme.organization.subdomain}`,
    );
    expect(sessionOf(linked)).toBeUndefined();
    expect((await call(session, "GET", "/api/sso/links/")).json().linked).toEqual([
      {
        organization: {
          id: acme.organization.id,
          title: acme.organization.title,
          subdomain: acme.organization.subdomain,
        },
        origin: "linked",
        since: expect.any(String),
      },
    ]);
    const viaSso = sessionOf(await signIn(acme.organization.subdomain, "eve")) as string;
    expect(viaSso).toBeTruthy();
    expect((await start(viaSso)).statusCode).toBe(403);
    // Another organization, which proved nothing, cannot be linked.
    const other = await organizationWithOidc();
    expect(
      (await call(session, "POST", "/api/sso/links/start/", { organization: other.organization.id }))
        .statusCode,
    ).toBe(404);
    expect((await call(session, "DELETE", `/api/sso/links/${acme.organization.id}/`)).statusCode).toBe(204);
    expect((await signIn(acme.organization.subdomain, "eve")).headers.location).toBe(refused("link_sent"));
  });

  it("makes require-SSO apply to the accounts the organization owns, never to its other members", async () => {
    await call(acme.owner.token, "PATCH", `/api/orgs-oidc/${acme.organization.id}/`, {
      issuer: peer.issuer,
      client_id: "tarmac",
      allowed_domains: [],
      require_sso: true,
    });
    const grace = await createUserWithPassword(t, "grace@acme.test");
    await addMember(t, acme.organization.id, 3, { user: grace, token: "", tokenId: 0 } as TestUser);
    const outsider = await createUserWithPassword(t, "outsider@elsewhere.test");
    await addMember(t, acme.organization.id, 3, { user: outsider, token: "", tokenId: 0 } as TestUser);
    const login = (email: string) =>
      t.app.inject({ method: "POST", url: "/api/user/login/", payload: { email, password: strongPassword } });
    expect((await login(grace.email)).json().sso_organization).toEqual([acme.organization.subdomain]);
    expect((await login(outsider.email)).statusCode).toBe(200);
  });
});

describe("domain claims", () => {
  it("refuses public mail services, proves one organization at a time, and lapses when the record goes", async () => {
    const first = await organizationWithOidc();
    const second = await organizationWithOidc();
    const claim = (org: typeof first, domain: string) =>
      call(org.owner.token, "POST", `/api/orgs-sso-domains/${org.organization.id}/`, { domain });
    expect((await claim(first, "Gmail.com")).json()).toEqual({
      domain: [
        "gmail.com is a public mail service: anyone can have an address there, so no organization can claim it.",
      ],
    });
    expect((await claim(first, "not a domain")).statusCode).toBe(400);
    const mine = (await claim(first, "shared.test")).json();
    const theirs = (await claim(second, "shared.test")).json();
    const verify = (org: typeof first, id: number) =>
      call(org.owner.token, "POST", `/api/orgs-sso-domains/${org.organization.id}/${id}/verify/`);
    expect((await verify(first, mine.id)).json().domain[0]).toMatch(
      /^No TXT record "tarmac-domain-verification=/,
    );
    expect((await t.app.inject({ url: "/api/check_sso/x@shared.test/" })).json()).toEqual({ sso: false });
    dns.setTxt(mine.txt_name, [mine.txt_value, theirs.txt_value]);
    expect((await verify(first, mine.id)).json()).toMatchObject({ verified: true });
    expect((await verify(second, theirs.id)).json().domain[0]).toMatch(
      /^Another organization has proven this domain\./,
    );
    expect((await t.app.inject({ url: "/api/check_sso/x@shared.test/" })).json().organization).toBe(
      first.organization.subdomain,
    );
    // Another organization's admin cannot see or touch the claims.
    expect(
      (await call(second.owner.token, "GET", `/api/orgs-sso-domains/${first.organization.id}/`)).statusCode,
    ).toBe(404);

    // The record disappears: three daily re-checks in a row, and the proof lapses.
    dns.setTxt(mine.txt_name, [theirs.txt_value]);
    const recheck = () => t.job("sso.recheck-domains").handler({}, { jobId: "test", retryCount: 0 });
    await recheck();
    await recheck();
    expect(
      (await call(first.owner.token, "GET", `/api/orgs-sso-domains/${first.organization.id}/`)).json()[0],
    ).toMatchObject({
      verified: true,
      failed_checks: 2,
    });
    await recheck();
    expect(
      (await call(first.owner.token, "GET", `/api/orgs-sso-domains/${first.organization.id}/`)).json()[0],
    ).toMatchObject({
      verified: false,
    });
    expect((await t.app.inject({ url: "/api/check_sso/x@shared.test/" })).json()).toEqual({ sso: false });
    expect((await verify(second, theirs.id)).json()).toMatchObject({ verified: true });

    // A resolver that does not answer counts nothing: an outage must not undo every proof.
    const outage = new DomainClaimsService({
      db: t.database.db,
      membership: t.services.membership,
      lookupTxt: async () => {
        throw Object.assign(new Error("no answer"), { code: "ETIMEOUT" });
      },
    });
    for (let round = 0; round < 4; round += 1) await outage.recheckAll();
    expect(
      (await call(second.owner.token, "GET", `/api/orgs-sso-domains/${second.organization.id}/`)).json()[0],
    ).toMatchObject({
      verified: true,
      failed_checks: 0,
    });
  });
});

it("keeps single sign-on within the plan's user limit", async () => {
  const { organization } = await organizationWithOidc({}, "free"); // 5 users, the owner is one
  const answers = [];
  for (let index = 0; index < 5; index += 1)
    answers.push((await signIn(organization.subdomain, `crowd${index}`)).headers.location);
  expect(answers.slice(0, 4)).toEqual(Array(4).fill("http://tarmac.test/dashboard"));
  expect(answers[4]).toBe(refused("user_limit"));
  expect(await accountOf("crowd4@crowd.test")).toBeUndefined();
  // Someone the organization already has still signs in.
  expect((await signIn(organization.subdomain, "crowd0")).headers.location).toBe(
    "http://tarmac.test/dashboard",
  );
});

it("refuses a second factor without a live ticket", async () => {
  const answer = await t.app.inject({
    method: "POST",
    url: "/api/sso/second-factor/",
    payload: { ticket: "x".repeat(43), otp: "123456" },
  });
  expect(answer.json()).toEqual({ ticket: ["This sign-in has expired. Sign in with single sign-on again."] });
});
