import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashToken } from "../../src/platform/crypto/tokens.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";
import { codeFromMail, strongPassword, uniqueEmail, waitForMail } from "./helpers.ts";

describe("secrets at rest", () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    await t.platform.jobs.work({ pollingIntervalSeconds: 0.5 });
  }, 60_000);
  afterAll(() => t.close());

  it("keeps only hashes of session tokens, API keys and e-mailed codes, and argon2id password hashes", async () => {
    const email = uniqueEmail("rest");
    const registered = await t.app.inject({
      method: "POST",
      url: "/api/user/register/",
      payload: { email, password: strongPassword },
    });
    const sessionToken = registered.json().token as string;
    const [mail] = await waitForMail(t, email);
    const code = codeFromMail(mail as NonNullable<typeof mail>);
    const { rows: users } = await t.database.sql.executeSql(
      "select id, password_hash from users where email = $1",
      [email],
    );
    const userId = Number(users[0]?.id);
    expect(String(users[0]?.password_hash)).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(String(users[0]?.password_hash)).not.toContain(strongPassword);

    const apiKey = await t.services.tokens.rotateApiKey(userId);
    const secondKey = await t.services.tokens.rotateApiKey(userId);
    const { rows: tokens } = await t.database.sql.executeSql(
      "select kind, token_hash, revoked_at from auth_tokens where user_id = $1 order by id",
      [userId],
    );
    expect(tokens.map((row) => [row.kind, row.token_hash, row.revoked_at === null])).toEqual([
      ["session", hashToken(sessionToken), true],
      ["api_key", hashToken(apiKey), false],
      ["api_key", hashToken(secondKey), true],
    ]);
    const { rows: codes } = await t.database.sql.executeSql(
      "select code_hash from user_codes where user_id = $1",
      [userId],
    );
    expect(codes).toEqual([{ code_hash: hashToken(code) }]);

    const dump = JSON.stringify(
      (
        await t.database.sql.executeSql(
          "select * from users u left join auth_tokens a on a.user_id = u.id left join user_codes c on c.user_id = u.id where u.id = $1",
          [userId],
        )
      ).rows,
    );
    for (const secret of [sessionToken, apiKey, secondKey, code, strongPassword])
      expect(dump).not.toContain(secret);

    // The newest API key authenticates; the rotated one no longer does.
    const withKey = (key: string) =>
      t.app.inject({
        method: "GET",
        url: "/api/user/recovery-codes-2fa/",
        headers: { authorization: `Token ${key}` },
      });
    expect((await withKey(secondKey)).statusCode).toBe(400);
    expect((await withKey(apiKey)).statusCode).toBe(401);
  });
});
