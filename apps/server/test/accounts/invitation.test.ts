import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashToken } from "../../src/platform/crypto/tokens.ts";
import { createUserWithToken } from "../helpers/factories.ts";
import { createOrganization } from "../helpers/org-factories.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";
import { codeFromMail, uniqueEmail, waitForMail } from "./helpers.ts";

describe("AccountService: the mail of an organization's invitation", () => {
  let t: TestApp;
  let inviterId: number;

  beforeAll(async () => {
    t = await createTestApp();
    await t.platform.jobs.work({ pollingIntervalSeconds: 0.5 });
    const inviter = await createUserWithToken(t);
    inviterId = inviter.user.id;
  }, 60_000);
  afterAll(() => t.close());

  const invite = (email: string, organizationId: number, organizationTitle = "Acme") =>
    t.database.db.transaction(async (tx) => {
      const user = await t.services.accounts.prepareInvitee(
        { email, firstName: "Ina", lastName: "Vited" },
        tx,
      );
      await t.services.accounts.mailInvitation(
        user,
        { invitedByUserId: inviterId, organizationId, organizationTitle },
        tx,
      );
      return user;
    });

  it("makes an inactive account for a new address, with a hashed code bound to the organization", async () => {
    const { organization } = await createOrganization(t);
    const email = uniqueEmail("Invitee");
    const user = await invite(email, organization.id);
    const { rows } = await t.database.sql.executeSql(
      "select u.email, u.is_active, u.password_hash, c.kind, c.code_hash, c.organization_id from users u join user_codes c on c.user_id = u.id where u.id = $1",
      [user.id],
    );
    // PostgreSQL's driver answers bigint as text, the embedded one as a number.
    expect(rows.map((row) => ({ ...row, organization_id: Number(row.organization_id) }))).toEqual([
      {
        email: email.toLowerCase(),
        is_active: false,
        password_hash: null,
        kind: "invitation",
        code_hash: expect.any(String),
        organization_id: organization.id,
      },
    ]);
    const [mail] = await waitForMail(t, email.toLowerCase());
    expect(mail?.subject).toBe("You are invited to Acme on Tarmac");
    expect(mail?.text).toContain("Test User");
    expect(mail?.html).toContain('<a href="http://tarmac.test/activate/');
    expect(rows[0]?.code_hash).toBe(hashToken(codeFromMail(mail as NonNullable<typeof mail>)));
  });

  it("asks someone with an account to sign in and answer, without any code or change to the account", async () => {
    const { organization } = await createOrganization(t);
    const existing = await createUserWithToken(t);
    const user = await invite(existing.user.email.toUpperCase(), organization.id);
    expect(user.id).toBe(existing.user.id);
    const [mail] = await waitForMail(t, existing.user.email);
    expect(mail?.subject).toBe("You are invited to Acme on Tarmac");
    expect(mail?.text).toContain("http://tarmac.test/dashboard/invitations");
    expect(mail?.text).toContain("Until you accept, the organization has no access to your account");
    const { rows } = await t.database.sql.executeSql(
      "select count(*)::int as n from user_codes where user_id = $1",
      [existing.user.id],
    );
    expect(rows[0]?.n).toBe(0);
  });

  it("joins the caller's transaction: nothing is created or sent when it rolls back", async () => {
    const { organization } = await createOrganization(t);
    const email = uniqueEmail("rollback");
    await expect(
      t.database.db.transaction(async (tx) => {
        const user = await t.services.accounts.prepareInvitee({ email, firstName: "", lastName: "" }, tx);
        await t.services.accounts.mailInvitation(
          user,
          { invitedByUserId: inviterId, organizationId: organization.id, organizationTitle: "Acme" },
          tx,
        );
        throw new Error("abort");
      }),
    ).rejects.toThrow("abort");
    const { rows } = await t.database.sql.executeSql(
      "select (select count(*)::int from users where email = $1) as users, (select count(*)::int from mail_outbox where to_address = $1) as mails",
      [email],
    );
    expect(rows[0]).toEqual({ users: 0, mails: 0 });
  });

  it("keeps each organization's link: a second invitation voids only its own organization's older one", async () => {
    const first = await createOrganization(t, { title: "First" });
    const second = await createOrganization(t, { title: "Second" });
    const email = uniqueEmail("two-orgs");
    await invite(email, first.organization.id, "First");
    const [firstMail] = await waitForMail(t, email);
    await invite(email, second.organization.id, "Second");
    await invite(email, second.organization.id, "Second");
    const mails = await waitForMail(t, email, 3);
    const firstCode = codeFromMail(firstMail as NonNullable<typeof firstMail>);
    await expect(t.services.accounts.describeCode(firstCode)).resolves.toMatchObject({ kind: "invitation" });
    // Mails may be delivered in any order: of Second's two links, exactly one still works.
    const secondCodes = mails.map((mail) => codeFromMail(mail)).filter((code) => code !== firstCode);
    const working = await Promise.all(
      secondCodes.map((code) =>
        t.services.accounts.describeCode(code).then(
          () => true,
          () => false,
        ),
      ),
    );
    expect(working.sort()).toEqual([false, true]);
  });

  it("gives a waiting nameless account the names an inviter typed, and the link starts from them", async () => {
    const { organization } = await createOrganization(t, { title: "Named" });
    const email = uniqueEmail("renamed");
    await t.database.db.transaction((tx) =>
      t.services.accounts.prepareInvitee({ email, firstName: "", lastName: "" }, tx),
    );
    await invite(email, organization.id, "Named");
    const [mail] = await waitForMail(t, email);
    const info = await t.app.inject({
      url: `/api/user/activate/${codeFromMail(mail as NonNullable<typeof mail>)}/`,
    });
    expect(info.json()).toMatchObject({ kind: "invitation", first_name: "Ina", last_name: "Vited" });
    // Names the owner or someone before chose stay: blank ones from a later inviter change nothing.
    await t.database.db.transaction((tx) =>
      t.services.accounts.prepareInvitee({ email, firstName: "", lastName: "" }, tx),
    );
    expect(await t.services.users.findByEmail(email)).toMatchObject({ firstName: "Ina", lastName: "Vited" });
  });

  it("refuses to resend to an active user", async () => {
    const active = await createUserWithToken(t);
    await expect(t.services.accounts.resendInvitation(active.user.id)).rejects.toMatchObject({
      status: 400,
      detail: "This user has already activated the account.",
    });
  });
});
