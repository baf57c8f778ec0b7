import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp, createVersion } from "../helpers/app-factories.ts";
import { createOrganization } from "../helpers/org-factories.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

/** Catalog versions move once per statement and organization, however many rows it touches. */
describe("catalog version bumps", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const sql = (text: string, values: unknown[] = []) => t.database.sql.executeSql(text, values);
  const versionOf = async (organizationId: number) =>
    Number(
      (await sql("select catalog_version from organizations where id = $1", [organizationId])).rows[0]
        ?.catalog_version,
    );

  it("moves once for a statement that changes many rows, and for every organization it touches", async () => {
    const a = await createOrganization(t);
    const b = await createOrganization(t);
    const appA = await createApp(t, a.organization.id);
    const appB = await createApp(t, b.organization.id);
    for (let index = 0; index < 5; index += 1) {
      await createVersion(t, appA, { version: `1.0.${index}` });
      await createVersion(t, appB, { version: `1.0.${index}` });
    }
    const [beforeA, beforeB] = [await versionOf(a.organization.id), await versionOf(b.organization.id)];
    await sql("update versions set whats_new = 'bulk' where application_id in ($1, $2)", [appA.id, appB.id]);
    expect(await versionOf(a.organization.id)).toBe(beforeA + 1);
    expect(await versionOf(b.organization.id)).toBe(beforeB + 1);

    await sql("delete from versions where application_id = $1", [appA.id]);
    expect(await versionOf(a.organization.id)).toBe(beforeA + 2);
    expect(await versionOf(b.organization.id)).toBe(beforeB + 1);

    // Counters are not part of a list page: they move no version.
    await sql("update versions set download_count = download_count + 1 where application_id = $1", [appB.id]);
    expect(await versionOf(b.organization.id)).toBe(beforeB + 1);

    await sql(
      "insert into versions (organization_id, application_id, version, build_number, file_key, file_name, file_size, sha256, content_type) " +
        "select $1, $2, '9.' || n, '1', 'orgs/x/builds/' || n, 'f.apk', 1, 'h', 'x' from generate_series(1, 20) n",
      [a.organization.id, appA.id],
    );
    expect(await versionOf(a.organization.id)).toBe(beforeA + 3);
  });
});
