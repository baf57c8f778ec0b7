import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { backwardIncompatibilities } from "../../src/platform/db/migration-compat.ts";

const migrations = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../migrations");

describe("migrations during a rolling deploy", () => {
  it("only add what the previous release can live with, unless marked a contraction", () => {
    const found = readdirSync(migrations)
      .filter((name) => name.endsWith(".sql"))
      .flatMap((name) =>
        backwardIncompatibilities(readFileSync(path.join(migrations, name), "utf8")).map(
          (problem) => `${name}: ${problem}`,
        ),
      );
    // See the README's "Upgrades": expand now, contract in a later release with `-- contract:`.
    expect(found).toEqual([]);
  });

  it("finds what the previous release would trip on", () => {
    const refused = [
      'DROP TABLE "old_links";',
      'ALTER TABLE "apps" DROP COLUMN "legacy";',
      'ALTER TABLE "apps" RENAME COLUMN "title" TO "name";',
      'ALTER TABLE "apps" RENAME TO "applications";',
      'ALTER TABLE "apps" ALTER COLUMN "size" TYPE bigint;',
      'ALTER TABLE "apps" ALTER COLUMN "size" SET DATA TYPE bigint;',
      'ALTER TABLE "apps" ALTER COLUMN "title" SET NOT NULL;',
      'ALTER TABLE "apps" ADD COLUMN "kind" text NOT NULL;',
    ];
    for (const sql of refused) expect(backwardIncompatibilities(sql), sql).toHaveLength(1);
  });

  it("lets additions, defaults, comments and marked contractions through", () => {
    const allowed = [
      'ALTER TABLE "apps" ADD COLUMN "kind" text NOT NULL DEFAULT \'apk\';',
      'ALTER TABLE "apps" ADD COLUMN "note" text;',
      'CREATE TABLE "links" ("id" bigint PRIMARY KEY, "name" text NOT NULL);',
      'DROP INDEX "apps_title_idx";',
      "DROP TRIGGER apps_version ON apps;--> statement-breakpoint\nCREATE TRIGGER apps_version AFTER INSERT ON apps EXECUTE FUNCTION bump();",
      "-- We no longer drop column x here.\nSELECT 1;",
      '-- contract: release 1.4 stopped reading apps.legacy\nALTER TABLE "apps" DROP COLUMN "legacy";',
    ];
    for (const sql of allowed) expect(backwardIncompatibilities(sql), sql).toEqual([]);
  });
});
