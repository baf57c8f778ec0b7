import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withNamedStatements } from "./pglite-named-statements.ts";

let raw: PGlite;
let named: PGlite;

/** The named statements the database keeps, read through PGlite's own path (unnamed). */
async function keptStatements(): Promise<string[]> {
  const result = await raw.query<{ statement: string }>(
    "select statement from pg_prepared_statements order by prepare_time",
  );
  return result.rows.map((row) => row.statement);
}

beforeAll(async () => {
  raw = await PGlite.create();
  named = withNamedStatements(raw, 3);
  await raw.exec(`
    create table item (id int primary key, title text not null, tags text[], meta jsonb,
      made timestamptz, ok boolean, big bigint);
    insert into item values (1, 'one', '{a,"b c"}', '{"k":[1,2]}', '2026-01-02T03:04:05.678Z', true, 9007199254740993);
  `);
});

afterAll(async () => {
  await raw.close();
});

describe("PGlite with named statements", () => {
  it("answers as PGlite's own query does, for every kind of value and both row modes", async () => {
    const text = "select * from item where id = $1 and made < $2 and tags && $3 and meta @> $4";
    const params = [1, new Date("2027-01-01T00:00:00Z"), ["a"], { k: [1] }];
    for (const rowMode of ["object", "array"] as const) {
      const expected = await raw.query(text, params, { rowMode });
      const actual = await named.query(text, params, { rowMode });
      expect(actual.rows).toEqual(expected.rows);
      expect(actual.fields).toEqual(expected.fields);
    }
    expect((await named.query<{ big: bigint }>("select big from item where id = $1", [1])).rows[0]?.big).toBe(
      9007199254740993n,
    );
    const custom = await named.query<{ made: string }>("select made from item where id = $1", [1], {
      parsers: { 1184: (value: string) => `as text: ${value}` },
    });
    expect(custom.rows[0]?.made).toMatch(/^as text: 2026-01-02 03:04:05\.678/);
  });

  it("parses a statement once and runs it again by name", async () => {
    const text = "select title from item where id = $1";
    for (let round = 0; round < 7; round++) {
      expect((await named.query<{ title: string }>(text, [1])).rows).toEqual([{ title: "one" }]);
    }
    expect((await keptStatements()).filter((statement) => statement === text)).toHaveLength(1);
    expect((await named.query(text, [2])).rows).toEqual([]);
  });

  it("keeps at most its capacity of statements, closing the least recently used", async () => {
    const texts = [1, 2, 3, 4, 5].map((n) => `select $1::int + ${n} as sum`);
    for (const text of texts) await named.query(text, [1]);
    // The next statement sends the close of the one evicted last.
    expect((await named.query<{ sum: number }>(texts[4] as string, [10])).rows).toEqual([{ sum: 15 }]);
    const kept = await keptStatements();
    expect(kept.length).toBeLessThanOrEqual(4);
    expect(kept).not.toContain(texts[0]);
    expect(kept).toContain(texts[4]);
  });

  it("follows a schema change under a kept statement", async () => {
    const text = "select * from item where id = $1";
    expect(Object.keys((await named.query<object>(text, [1])).rows[0] ?? {})).not.toContain("extra");
    await raw.exec("alter table item add column extra text default 'new'");
    expect((await named.query<{ extra: string }>(text, [1])).rows[0]?.extra).toBe("new");
  });

  it("throws the database's error with the statement, and runs on afterwards", async () => {
    const insert = "insert into item (id, title) values ($1, $2)";
    const duplicate = await named.query(insert, [1, "again"]).catch((error: unknown) => error);
    expect(duplicate).toMatchObject({ code: "23505", query: insert, params: [1, "again"] });
    const broken = await named.query("selec $1", [1]).catch((error: unknown) => error);
    expect(broken).toMatchObject({ code: "42601" });
    await named.query(insert, [2, "two"]);
    expect((await named.query("select id from item where id = $1", [2])).rows).toEqual([{ id: 2 }]);
  });

  it("waits for a transaction in progress rather than running inside it", async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const transaction = raw.transaction(async (tx) => {
      await tx.query("insert into item (id, title) values (10, 'in transaction')");
      await held;
      await tx.rollback();
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const seen = named.query("select count(*)::int as n from item where id = $1", [10]);
    // Time enough to run, had it not waited: it would have seen the transaction's row.
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    await transaction;
    expect((await seen).rows).toEqual([{ n: 0 }]);
  });

  it("delivers notifications raised by its statements", async () => {
    const received: string[] = [];
    await raw.listen("named_test", (payload) => received.push(payload));
    await named.query("select pg_notify('named_test', $1)", ["hello"]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(received).toEqual(["hello"]);
  });

  it("leaves statements without parameters to PGlite", async () => {
    const before = (await keptStatements()).length;
    expect((await named.query("select 41 + 1 as answer")).rows).toEqual([{ answer: 42 }]);
    expect(await keptStatements()).toHaveLength(before);
  });
});
