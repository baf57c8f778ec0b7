/**
 * Seeds a bench database: one active user with an API key (printed as JSON with the ids), one
 * organization on the unlimited plan, APPS apps in APPS projects and VERSIONS_PER_APP versions
 * each. Runs as its own process because the embedded database admits one process at a time.
 */
import { loadConfig } from "../src/config.ts";
import { TokenService } from "../src/modules/users/token.service.ts";
import { insertUser } from "../src/modules/users/users.repo.ts";
import { openDatabase } from "../src/platform/db/client.ts";
import { applyMigrations } from "../src/platform/db/migrate.ts";

const apps = Number(process.env.APPS ?? 10_000);
const perApp = Number(process.env.VERSIONS_PER_APP ?? 10);
const config = loadConfig();
const handle = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR, poolSize: 1 });
const run = (text: string, values: unknown[] = []) => handle.sql.executeSql(text, values);
try {
  await applyMigrations(handle);
  const user = await insertUser(handle.db, { email: `bench-${Date.now()}@example.com`, isActive: true });
  const token = await new TokenService({ db: handle.db }).issueApiKey(user.id);
  const org = await run(
    `insert into organizations (title, subdomain, plan_id, sdk_key)
     select 'Bench', $1, id, md5(random()::text) from plans where code = 'unlimited' returning id`,
    [`bench-${Date.now()}`],
  );
  const organizationId = Number(org.rows[0]?.id);
  await run("insert into memberships (organization_id, user_id, role) values ($1, $2, 1)", [
    organizationId,
    user.id,
  ]);
  await run(
    `insert into projects (organization_id, title)
     select $1, 'Project ' || n from generate_series(1, $2::int) n`,
    [organizationId, apps],
  );
  await run(
    `insert into applications (organization_id, project_id, title, app_type, app_key, bundle_id, updated_at)
     select $1, p.id, 'App ' || p.id, (p.id % 4)::smallint, md5(p.id::text || random()::text),
            'com.bench.app' || p.id, now() - (p.id || ' seconds')::interval
     from projects p where p.organization_id = $1`,
    [organizationId],
  );
  await run(
    `insert into versions (organization_id, application_id, version, build_number, file_key, file_name,
                           file_size, sha256, content_type, bundle_id, uploaded_by, created_at)
     select $1::bigint, a.id, '1.' || n || '.0', n::text, 'orgs/' || $1::bigint || '/builds/missing-' || a.id || '-' || n,
            'app-' || n || '.apk', 1048576, md5(a.id::text || n::text) || md5(n::text),
            'application/vnd.android.package-archive', a.bundle_id, $2,
            now() - (($3::int - n) || ' hours')::interval
     from applications a cross join generate_series(1, $3::int) n where a.organization_id = $1::bigint`,
    [organizationId, user.id, perApp],
  );
  await run(
    `update applications a set versions_count = $2,
       current_version_id = (select max(v.id) from versions v where v.application_id = a.id)
     where a.organization_id = $1::bigint`,
    [organizationId, perApp],
  );
  await run(
    `update organizations set builds_count = $2::int, projects_count = $3::int, space_used_bytes = $2::int * 1048576::bigint
     where id = $1`,
    [organizationId, apps * perApp, apps],
  );
  await run("analyze");
  const sample = await run(
    "select id from applications where organization_id = $1 order by random() limit 50",
    [organizationId],
  );
  const appIds = sample.rows.map((row) => Number(row.id));
  process.stdout.write(`${JSON.stringify({ token, organizationId, appIds })}\n`);
} finally {
  await handle.close();
}
