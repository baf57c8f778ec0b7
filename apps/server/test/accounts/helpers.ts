import { expect } from "vitest";
import type { TestApp } from "../helpers/test-app.ts";

export interface OutboxRow {
  to: string;
  subject: string;
  text: string;
  html: string | null;
}

/** Waits until the mail.send job delivered `count` messages to `to` and returns them, newest first. */
export async function waitForMail(
  t: TestApp,
  to: string,
  count = 1,
  timeoutMs = 15_000,
): Promise<OutboxRow[]> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const { rows } = await t.database.sql.executeSql(
      "select to_address as to, subject, text_body as text, html_body as html from mail_outbox where to_address = $1 order by id desc",
      [to],
    );
    if (rows.length >= count) return rows as unknown as OutboxRow[];
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`expected ${count} mail(s) to ${to}`);
}

/** The code in the last link of a mail: /activate/{code} or ?code={code}. */
export function codeFromMail(mail: OutboxRow): string {
  const match = /\/activate\/([A-Za-z0-9_-]+)|[?&]code=([A-Za-z0-9_-]+)/.exec(mail.text);
  expect(match).not.toBeNull();
  return (match?.[1] ?? match?.[2]) as string;
}

let sequence = 0;
export function uniqueEmail(prefix = "acc"): string {
  sequence += 1;
  return `${prefix}${sequence}-${process.pid}@example.test`;
}

export const strongPassword = "Correct-Horse-Battery-42";

/** An active user who can sign in with `strongPassword`. */
export async function createUserWithPassword(t: TestApp, email = uniqueEmail("pw")) {
  const { hashPassword } = await import("../../src/platform/crypto/passwords.ts");
  const { insertUser } = await import("../../src/modules/users/users.repo.ts");
  return insertUser(t.database.db, {
    email,
    isActive: true,
    firstName: "Pat",
    lastName: "Word",
    passwordHash: await hashPassword(strongPassword),
  });
}

/** An organization with the user in it at `role` (1 owner ... 5 tester); returns its id. */
export async function addMembership(
  t: TestApp,
  userId: number,
  role: number,
  title = "Acme",
): Promise<number> {
  sequence += 1;
  const { rows } = await t.database.sql.executeSql(
    `insert into organizations (title, subdomain, plan_id, sdk_key)
     values ($1, $2, (select id from plans order by id limit 1), $3) returning id`,
    [title, `org-${sequence}-${process.pid}`, `sdk-${sequence}-${process.pid}`],
  );
  const orgId = Number(rows[0]?.id);
  await t.database.sql.executeSql(
    "insert into memberships (organization_id, user_id, role) values ($1, $2, $3)",
    [orgId, userId, role],
  );
  return orgId;
}
