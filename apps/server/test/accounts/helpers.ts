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
