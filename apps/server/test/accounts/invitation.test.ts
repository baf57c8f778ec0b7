import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashToken } from "../../src/platform/crypto/tokens.ts";
import { createUserWithToken } from "../helpers/factories.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";
import { codeFromMail, uniqueEmail, waitForMail } from "./helpers.ts";

describe("AccountService.inviteByEmail", () => {
  let t: TestApp;
  let inviterId: number;

  beforeAll(async () => {
    t = await createTestApp();
    await t.platform.jobs.work({ pollingIntervalSeconds: 0.5 });
    const inviter = await createUserWithToken(t);
    inviterId = inviter.user.id;
  }, 60_000);
  afterAll(() => t.close());

  it("creates an inactive user with a hashed invitation code and e-mails the link", async () => {
    const email = uniqueEmail("Invitee");
    const result = await t.services.accounts.inviteByEmail({
      email,
      firstName: "Ina",
      lastName: "Vited",
      invitedByUserId: inviterId,
      organizationTitle: "Acme",
    });
    expect(result).toEqual({ userId: expect.any(Number), created: true });
    const { rows } = await t.database.sql.executeSql(
      "select u.email, u.is_active, u.password_hash, c.kind, c.code_hash from users u join user_codes c on c.user_id = u.id where u.id = $1",
      [result.userId],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      email: email.toLowerCase(),
      is_active: false,
      password_hash: null,
      kind: "invitation",
    });
    const [mail] = await waitForMail(t, email.toLowerCase());
    expect(mail?.subject).toBe("You are invited to Acme on Tarmac");
    expect(mail?.text).toContain("Test User");
    expect(mail?.text).toContain("http://tarmac.test/activate/");
    expect(mail?.html).toContain('<a href="http://tarmac.test/activate/');
    const code = codeFromMail(mail as NonNullable<typeof mail>);
    expect(rows[0]?.code_hash).toBe(hashToken(code));
  });

  it("tells an existing user they were added, without creating anyone", async () => {
    const existing = await createUserWithToken(t);
    const result = await t.services.accounts.inviteByEmail({
      email: existing.user.email.toUpperCase(),
      firstName: "X",
      lastName: "Y",
      invitedByUserId: inviterId,
      organizationTitle: "Acme",
    });
    expect(result).toEqual({ userId: existing.user.id, created: false });
    const [mail] = await waitForMail(t, existing.user.email);
    expect(mail?.subject).toBe("You were added to Acme on Tarmac");
    expect(mail?.text).toContain("http://tarmac.test/login");
  });

  it("joins the caller's transaction: nothing is created or sent when it rolls back", async () => {
    const email = uniqueEmail("rollback");
    await expect(
      t.database.db.transaction(async (tx) => {
        await t.services.accounts.inviteByEmail(
          { email, firstName: "", lastName: "", invitedByUserId: inviterId },
          { tx },
        );
        throw new Error("abort");
      }),
    ).rejects.toThrow("abort");
    const { rows } = await t.database.sql.executeSql(
      "select count(*)::int as n from users where email = $1",
      [email],
    );
    expect(rows[0]?.n).toBe(0);
  });

  it("resends a pending invitation with a new code and voids the old one", async () => {
    const email = uniqueEmail("resend");
    const { userId } = await t.services.accounts.inviteByEmail({
      email,
      firstName: "R",
      lastName: "S",
      invitedByUserId: inviterId,
    });
    const [first] = await waitForMail(t, email);
    await t.services.accounts.resendInvitation(userId, {
      invitedByUserId: inviterId,
      organizationTitle: "Acme",
    });
    const [second] = await waitForMail(t, email, 2);
    const oldCode = codeFromMail(first as NonNullable<typeof first>);
    const newCode = codeFromMail(second as NonNullable<typeof second>);
    expect(newCode).not.toBe(oldCode);
    await expect(t.services.accounts.describeCode(oldCode)).rejects.toMatchObject({ status: 404 });
    await expect(t.services.accounts.describeCode(newCode)).resolves.toEqual({
      email,
      kind: "invitation",
      requiresPassword: true,
      firstName: "R",
      lastName: "S",
    });
  });

  it("refuses to resend to an active user", async () => {
    const active = await createUserWithToken(t);
    await expect(t.services.accounts.resendInvitation(active.user.id)).rejects.toMatchObject({
      status: 400,
      detail: "This user has already activated the account.",
    });
  });
});
