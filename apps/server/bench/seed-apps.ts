/**
 * Seeds a bench database with one large organization (see seedLargeOrganization: APPS apps,
 * VERSIONS_PER_APP versions each, STAFF members, TEAMS teams, TESTERS testers on one app), with
 * every member in that app's project. Prints the ids, samples to search for and the seed time
 * as JSON. Runs as its own process because the embedded database admits one process at a time.
 */
import { loadConfig } from "../src/config.ts";
import { openDatabase } from "../src/platform/db/client.ts";
import { applyMigrations } from "../src/platform/db/migrate.ts";
import { seedLargeOrganization } from "../test/helpers/large-organization.ts";

const config = loadConfig();
const handle = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR, poolSize: 1 });
const run = (text: string, values: unknown[] = []) => handle.sql.executeSql(text, values);
try {
  await applyMigrations(handle);
  const started = performance.now();
  const seeded = await seedLargeOrganization(handle, {
    apps: Number(process.env.APPS ?? 10_000),
    versionsPerApp: Number(process.env.VERSIONS_PER_APP ?? 10),
    staff: Number(process.env.STAFF ?? 2_000),
    teams: Number(process.env.TEAMS ?? 200),
    testers: Number(process.env.TESTERS ?? 5_000),
  });
  const { token, organizationId, testerAppId } = seeded;
  // Every member works on the first app's project, so its members list is as long as the staff.
  const project = await run(
    `insert into project_members (project_id, user_id, role, is_access_all_envs, access_envs)
     select a.project_id, m.user_id, 5, true, '{}' from memberships m
     join applications a on a.id = $2 where m.organization_id = $1 and m.role > 1
     returning project_id`,
    [organizationId, testerAppId],
  );
  const projectId = Number(project.rows[0]?.project_id);
  const seedSeconds = (performance.now() - started) / 1000;
  // The steady state of a large catalog: vacuumed and analysed, so that no background vacuum of
  // the freshly inserted rows competes with the measurement for the machine.
  await run("vacuum analyze");
  const sample = await run(
    "select id, title, bundle_id from applications where organization_id = $1 order by random() limit 200",
    [organizationId],
  );
  // Builds are asked of many apps, so that most pages of builds are read rather than kept.
  const appIds = await run(
    "select id from applications where organization_id = $1 order by random() limit 20000",
    [organizationId],
  );
  const people = await run("select email, first_name, last_name from users order by random() limit 200");
  const testerSample = await run(
    "select email, last_name from testers where application_id = $1 order by random() limit 200",
    [testerAppId],
  );
  process.stdout.write(
    `${JSON.stringify({
      token,
      organizationId,
      testerAppId,
      projectId,
      seedSeconds,
      appIds: appIds.rows.map((row) => Number(row.id)),
      appTexts: sample.rows.flatMap((row) => [String(row.title), String(row.bundle_id)]),
      staffTexts: people.rows.flatMap((row) => [
        String(row.email),
        String(row.first_name),
        String(row.last_name),
      ]),
      testerTexts: testerSample.rows.flatMap((row) => [String(row.email), String(row.last_name)]),
    })}\n`,
  );
} finally {
  await handle.close();
}
