import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { migrationsFolder } from "../../src/platform/db/migrate.ts";
import { createUserWithToken } from "../helpers/factories.ts";
import { addMember, createOrganization, createTeam } from "../helpers/org-factories.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 60_000);
afterAll(() => t?.close());

const sql = (text: string, values: unknown[] = []) => t.database.sql.executeSql(text, values);

/** The statements of migration 0026 that repair data (the schema part ran when the database was made). */
function repairStatements(): string[] {
  const text = readFileSync(path.join(migrationsFolder, "0026_sso-trust.sql"), "utf8");
  const repair = text.slice(text.indexOf("-- An organization's own sign-in used to open any account"));
  return repair
    .split("--> statement-breakpoint")
    .map((statement) => statement.trim())
    .filter(Boolean);
}

it("undoes what the old single sign-on did: its sessions end, stolen activations revert, unanswered places become invitations", async () => {
  const { organization } = await createOrganization(t);
  const team = await createTeam(t, organization.id);
  // A person the old sign-in created (no password), a password account it opened, an account it
  // activated behind its owner's back (the activation link is still unused), and someone added
  // to the organization who never signed in.
  const created = await createUserWithToken(t);
  await sql("update users set password_hash = null where id = $1", [created.user.id]);
  await addMember(t, organization.id, 3, created);
  const opened = await createUserWithToken(t);
  await sql("update users set password_hash = 'x' where id = $1", [opened.user.id]);
  const activated = await createUserWithToken(t);
  await sql("update users set password_hash = 'x' where id = $1", [activated.user.id]);
  await sql(
    "insert into user_codes (user_id, kind, code_hash, expires_at) values ($1, 'activation', $2, now() + interval '1 day')",
    [activated.user.id, `unused-${activated.user.id}`],
  );
  const invited = await createUserWithToken(t);
  await sql("update users set is_active = false, password_hash = null where id = $1", [invited.user.id]);
  await addMember(t, organization.id, 5, invited);
  await sql("insert into team_members (team_id, user_id) values ($1, $2)", [team.id, invited.user.id]);
  for (const person of [created, opened, activated]) {
    await t.services.tokens.issueSession(person.user.id, new Date(), t.database.db, {
      ssoOrganizationId: organization.id,
    });
  }

  for (const statement of repairStatements()) await sql(statement);

  const live = await sql(
    "select count(*)::int as n from auth_tokens where sso_organization_id is not null and revoked_at is null",
  );
  expect(live.rows[0]?.n).toBe(0);
  // Ids cast to int: PostgreSQL's driver answers bigint as text, the embedded one as a number.
  const identities = await sql("select user_id::int, origin from sso_identities where organization_id = $1", [
    organization.id,
  ]);
  expect(identities.rows).toEqual([{ user_id: created.user.id, origin: "created" }]);
  const active = await sql("select id::int, is_active from users where id = any($1::bigint[]) order by id", [
    [opened.user.id, activated.user.id],
  ]);
  expect(active.rows).toEqual([
    { id: opened.user.id, is_active: true },
    { id: activated.user.id, is_active: false },
  ]);
  const invitation = await sql(
    "select role, team_ids::int[] from organization_invitations where organization_id = $1 and user_id = $2",
    [organization.id, invited.user.id],
  );
  expect(invitation.rows).toEqual([{ role: 5, team_ids: [team.id] }]);
  const leftovers = await sql(
    "select (select count(*)::int from memberships where user_id = $1) as memberships, (select count(*)::int from team_members where user_id = $1) as teams",
    [invited.user.id],
  );
  expect(leftovers.rows[0]).toEqual({ memberships: 0, teams: 0 });
});
