import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { describeSchema } from "../../src/platform/db/schema-view.ts";
import { createTestDatabase } from "../helpers/test-database.ts";

const checkedIn = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../../docs/database.sql");

it("docs/database.sql is the database the migrations make (run `npm run db:schema -w apps/server` after a migration)", async () => {
  const handle = await createTestDatabase();
  try {
    const described = await describeSchema(handle.sql);
    // Line by line, so a difference names the table, trigger or function it is in.
    expect(described.split("\n")).toEqual(readFileSync(checkedIn, "utf8").split("\n"));
    expect(described).toMatch(/^create table organizations \(/m);
    expect(described).toMatch(/^CREATE TRIGGER /m);
  } finally {
    await handle.close();
  }
});
