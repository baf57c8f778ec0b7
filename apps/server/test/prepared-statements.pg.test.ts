import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findLiveMembership } from "../src/modules/organization/membership.repo.ts";
import { findUsersByIds } from "../src/modules/users/users.repo.ts";
import { type DatabaseHandle, openPostgres } from "../src/platform/db/client.ts";
import { createTestDatabase } from "./helpers/test-database.ts";

// What a connection has prepared is PostgreSQL's own record (pg_prepared_statements); the
// embedded database has no connections to keep statements on: *.pg.test.ts run in the
// PostgreSQL pass only.
let handle: DatabaseHandle;

beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle?.close();
});

/** The statements each of the pool's connections has prepared, read on every connection at once. */
async function preparedStatements(): Promise<string[]> {
  const reads = Array.from({ length: 5 }, () =>
    handle.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_sleep(0.05)`); // holds its connection while the others read
      const result = await tx.execute(sql`select statement from pg_prepared_statements`);
      return (result as unknown as { rows: { statement: string }[] }).rows.map((row) => row.statement);
    }),
  );
  return (await Promise.all(reads)).flat();
}

describe("statements prepared per connection", () => {
  it("prepares a list of ids once whatever its length, and answers each call with its own values", async () => {
    const created = await handle.sql.executeSql(
      "insert into users (email, password_hash, first_name, last_name) select 'p' || n || '@example.org', '', 'P', 'N' || n from generate_series(1, 30) n returning id",
    );
    const ids = created.rows.map((row) => Number(row.id));
    for (const size of [1, 7, 30]) {
      const found = await findUsersByIds(handle.db, ids.slice(0, size));
      expect(found.map((user) => user.id).sort((a, b) => a - b)).toEqual(ids.slice(0, size));
    }
    expect(await findUsersByIds(handle.db, [ids[0] as number, -1])).toHaveLength(1);
    expect(await findLiveMembership(handle.db, ids[0] as number, 999_999)).toBeNull();

    const statements = await preparedStatements();
    const byIds = statements.filter((text) => text.includes('from "users" where "users"."id" = any('));
    // One text for every length, prepared at most once on each connection that ran it.
    expect(new Set(byIds).size).toBe(1);
    expect(byIds.length).toBeLessThanOrEqual(5);
    expect(statements.some((text) => text.includes('from "memberships"'))).toBe(true);
  });
});

describe("connection settings", () => {
  const settingOf = async (db: DatabaseHandle, name: string) =>
    String((await db.sql.executeSql(`select current_setting('${name}') as value`)).rows[0]?.value);

  it("turns JIT compilation off for Tarmac's connections, unless DATABASE_URL's options say otherwise", async () => {
    expect(await settingOf(handle, "jit")).toBe("off");
    const baseUrl = process.env.TEST_DATABASE_URL as string;
    const withOptions = new URL(baseUrl);
    withOptions.searchParams.set("options", "-c jit=on");
    const own = await openPostgres(withOptions.toString(), 1);
    try {
      expect(await settingOf(own, "jit")).toBe("on");
    } finally {
      await own.close();
    }
  });
});
