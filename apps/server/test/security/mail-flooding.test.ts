import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithPassword, uniqueEmail } from "../accounts/helpers.ts";
import { authHeader } from "../helpers/factories.ts";
import { addMember, createOrganization, membershipIdOf } from "../helpers/org-factories.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";
import { waitFor } from "../helpers/wait-for.ts";

describe("mail flooding", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const sql = (text: string, values: unknown[] = []) => t.database.sql.executeSql(text, values);
  const queuedTo = async (address: string) =>
    Number(
      (
        await sql("select count(*)::int as n from pgboss.job where name = 'mail.send' and data->>'to' = $1", [
          address,
        ])
      ).rows[0]?.n,
    );

  it("limits password resets per address and per client", async () => {
    const user = await createUserWithPassword(t, uniqueEmail("reset"));
    const reset = (email: string, ip: string) =>
      t.app.inject({
        method: "POST",
        url: "/api/user/password/update/",
        payload: { email },
        remoteAddress: ip,
      });
    const statuses = [];
    for (let attempt = 0; attempt < 10; attempt += 1)
      statuses.push((await reset(user.email, `10.0.0.${attempt}`)).statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(3);
    expect(statuses.slice(3).every((status) => status === 429)).toBe(true);
    expect(await queuedTo(user.email)).toBe(3);
    // The answer does not depend on whether the address has an account.
    const unknown = uniqueEmail("nobody");
    const unknownStatuses = [];
    for (let attempt = 0; attempt < 4; attempt += 1)
      unknownStatuses.push((await reset(unknown, "10.1.0.1")).statusCode);
    expect(unknownStatuses).toEqual([200, 200, 200, 429]);
    // One client asking for many addresses is limited too.
    const many = [];
    for (let attempt = 0; attempt < 12; attempt += 1)
      many.push((await reset(uniqueEmail("spray"), "10.2.0.1")).statusCode);
    expect(many.filter((status) => status === 429).length).toBeGreaterThan(0);
  });

  it("limits invitation resends per recipient", async () => {
    const { organization, owner } = await createOrganization(t);
    const invited = await addMember(t, organization.id, 3);
    await sql("update users set is_active = false, password_hash = null where id = $1", [invited.user.id]);
    const membershipId = await membershipIdOf(t, organization.id, invited.user.id);
    const statuses = [];
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const response = await t.app.inject({
        url: `/api/usersinorgs/${membershipId}/?resend=1`,
        headers: authHeader(owner.token),
      });
      statuses.push(response.statusCode);
      if (response.statusCode === 429) expect(response.headers["retry-after"]).toBeDefined();
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
  });

  it("delivers mail in batches, account mail first", async () => {
    for (let index = 0; index < 30; index += 1) {
      await t.platform.mail.queue({
        to: `bulk${index}@example.test`,
        subject: "Bulk",
        title: "Bulk",
        blocks: ["x"],
      });
    }
    const person = await createUserWithPassword(t, uniqueEmail("urgent"));
    await t.app.inject({
      method: "POST",
      url: "/api/user/password/update/",
      payload: { email: person.email },
    });
    await t.platform.jobs.work({ pollingIntervalSeconds: 0.5 });
    await waitFor(
      async () => Number((await sql("select count(*)::int as n from mail_outbox")).rows[0]?.n) >= 31,
      20_000,
    );
    const order = (await sql("select to_address from mail_outbox order by id")).rows.map(
      (row) => row.to_address,
    );
    // The reset went out in the first batch, ahead of bulk mail queued before it.
    expect(order).toContain(person.email);
    expect(order.indexOf(person.email)).toBeLessThan(10);
    // Several mails per fetch: far fewer distinct start times than mails.
    const starts = await sql(
      "select count(distinct started_on)::int as n from pgboss.job where name = 'mail.send'",
    );
    expect(Number(starts.rows[0]?.n)).toBeLessThanOrEqual(8);
  });

  it("limits invitations: invite-and-cancel cycles per inviter, and every organization together per address", async () => {
    const target = await createUserWithPassword(t, uniqueEmail("flooded"));
    const cycle = async (token: string, organizationId: number) => {
      const invited = await t.app.inject({
        method: "POST",
        url: "/api/usersinorgs/",
        headers: authHeader(token),
        payload: { userid: target.email, organization: organizationId, role: 5 },
      });
      if (invited.statusCode === 201) {
        await t.app.inject({
          method: "DELETE",
          url: `/api/orgs-invitations/${invited.json().id}/`,
          headers: authHeader(token),
        });
      }
      return invited;
    };
    const statuses: number[] = [];
    const first = await createOrganization(t);
    for (let round = 0; round < 5; round += 1) {
      const answer = await cycle(first.owner.token, first.organization.id);
      statuses.push(answer.statusCode);
      if (answer.statusCode === 429) expect(Number(answer.headers["retry-after"])).toBeGreaterThan(0);
    }
    expect(statuses).toEqual([201, 201, 201, 429, 429]);
    // Other organizations' owners add up to ten a day for the address, then nobody gets through.
    const across: number[] = [];
    for (let index = 0; index < 3; index += 1) {
      const other = await createOrganization(t);
      for (let round = 0; round < 3; round += 1)
        across.push((await cycle(other.owner.token, other.organization.id)).statusCode);
    }
    expect(across.filter((status) => status === 201)).toHaveLength(7);
    expect(across.slice(7)).toEqual([429, 429]);
    expect(await queuedTo(target.email)).toBe(10);
  });
});
