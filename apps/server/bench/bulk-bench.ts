/**
 * Bulk changes on PostgreSQL: deleting an app with 100,000 versions through the API
 * (DELETE /api/applications/{id}/), with a second connection probing how long the organization
 * row stays locked; and inserting/deleting 8,000 and 32,000 versions with the catalog triggers
 * against the same statements with the triggers disabled, in the same run.
 */
import { pino } from "pino";
import { createModules } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";
import { openPostgres } from "../src/platform/db/client.ts";
import { closePlatform, openPlatform } from "../src/platform/platform.ts";
import { buildApp, registerJobs } from "../src/process-roles.ts";

type Run = (text: string, values?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;

const secondsSince = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e9;

async function insertVersions(
  run: Run,
  target: { organizationId: number; appId: number },
  count: number,
  from = 0,
) {
  await run(
    `insert into versions (organization_id, application_id, version, build_number, file_key, file_name, file_size, sha256, content_type)
     select $1::bigint, $2, '1.0.' || n, '1', 'orgs/' || $1::text || '/builds/b' || n, 'b.apk', 1000, 'h', 'x'
     from generate_series($3::int + 1, $3::int + $4::int) n`,
    [target.organizationId, target.appId, from, count],
  );
}

/** An organization (owner `userId`) with one app and `versions` versions, inserted in one statement. */
async function seedApp(run: Run, userId: number, versions: number) {
  const [org] = (
    await run(
      "insert into organizations (title, subdomain, plan_id, sdk_key) select 'Bulk', 'bulk-' || md5(random()::text), id, md5(random()::text) from plans where code = 'unlimited' returning id",
    )
  ).rows;
  const organizationId = Number(org?.id);
  await run("insert into memberships (organization_id, user_id, role) values ($1, $2, 1)", [
    organizationId,
    userId,
  ]);
  const [project] = (
    await run("insert into projects (organization_id, title) values ($1, 'Bulk') returning id", [
      organizationId,
    ])
  ).rows;
  const [app] = (
    await run(
      "insert into applications (organization_id, project_id, title, app_type, app_key) values ($1, $2, 'Bulk', 0, md5(random()::text)) returning id",
      [organizationId, project?.id],
    )
  ).rows;
  const target = { organizationId, appId: Number(app?.id) };
  if (versions > 0) await insertVersions(run, target, versions);
  await run("update organizations set builds_count = $2, space_used_bytes = $2 * 1000 where id = $1", [
    organizationId,
    versions,
  ]);
  return target;
}

/** Longest wait for the organization row while `work` runs, probed from another connection. */
async function longestRowWait(probeUrl: string, organizationId: number, work: () => Promise<void>) {
  const probe = await openPostgres(probeUrl, 1);
  let longest = 0;
  let probing = true;
  const prober = (async () => {
    while (probing) {
      const start = process.hrtime.bigint();
      await probe.sql.executeSql(
        `begin; select id from organizations where id = ${organizationId} for update; commit;`,
      );
      longest = Math.max(longest, secondsSince(start));
      if (secondsSince(start) > 0.05)
        console.log("T probe waited", secondsSince(start), "ended", Date.now() % 100000);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  try {
    await work();
  } finally {
    probing = false;
    await prober;
    await probe.close();
  }
  return longest;
}

export async function runBulkBench(databaseUrl: string) {
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    SECRET_KEY: "b".repeat(40),
    LOG_LEVEL: "silent",
    DATA_DIR: "/tmp/tarmac-bulk-bench",
  });
  const logger = pino({ level: "silent" });
  const platform = await openPlatform(config, logger);
  const modules = createModules(platform);
  registerJobs(platform, modules);
  await platform.jobs.start();
  const app = await buildApp(platform, modules, logger);
  const run: Run = (text, values = []) => platform.database.sql.executeSql(text, values);
  try {
    const [user] = (
      await run(
        "insert into users (email, is_active) values ('bulk-' || md5(random()::text) || '@example.test', true) returning id",
      )
    ).rows;
    const userId = Number(user?.id);
    const { token } = await modules.users.services.tokens.issueSession(userId);

    const big = await seedApp(run, userId, 100_000);
    let deleteSeconds = 0;
    let status = 0;
    const lockedSeconds = await longestRowWait(databaseUrl, big.organizationId, async () => {
      const start = process.hrtime.bigint();
      const response = await app.inject({
        method: "DELETE",
        url: `/api/applications/${big.appId}/`,
        headers: { authorization: `Token ${token}` },
      });
      deleteSeconds = secondsSince(start);
      console.log("T delete ended", Date.now() % 100000);
      status = response.statusCode;
    });

    const statements: Array<{ name: string; triggers: number; without: number }> = [];
    for (const size of [8000, 32_000]) {
      const target = await seedApp(run, userId, 0);
      const timings = { insert: { triggers: 0, without: 0 }, delete: { triggers: 0, without: 0 } };
      for (const mode of ["triggers", "without"] as const) {
        await run(`alter table versions ${mode === "triggers" ? "enable" : "disable"} trigger user`);
        let start = process.hrtime.bigint();
        await insertVersions(run, target, size);
        timings.insert[mode] = secondsSince(start);
        start = process.hrtime.bigint();
        await run("delete from versions where application_id = $1", [target.appId]);
        timings.delete[mode] = secondsSince(start);
      }
      await run("alter table versions enable trigger user");
      statements.push(
        { name: `insert ${size}`, ...timings.insert },
        { name: `delete ${size}`, ...timings.delete },
      );
    }
    return { status, deleteSeconds, lockedSeconds, statements };
  } finally {
    await app.close();
    await closePlatform(platform, 1000);
  }
}
