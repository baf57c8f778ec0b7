/**
 * One large organization filled by bulk statements with the catalog triggers in force, as the
 * scale benchmark and the query-plan test need it: an active owner with an API key, `apps` apps
 * in as many projects with titles and bundle ids made of (partly accented) words,
 * `versionsPerApp` versions each, `staff` members, `teams` teams and `testers` testers on the
 * first app.
 */

import { TokenService } from "../../src/modules/users/token.service.ts";
import { insertUser } from "../../src/modules/users/users.repo.ts";
import type { DatabaseHandle } from "../../src/platform/db/client.ts";

export interface LargeOrganizationSize {
  apps: number;
  versionsPerApp: number;
  staff: number;
  teams: number;
  testers: number;
}

export interface LargeOrganization {
  token: string;
  userId: number;
  organizationId: number;
  testerAppId: number;
}

/** Words of titles and names: a few accented, so searches test folding. */
const words = `array['Café','Crème','Nova','Pulse','Atlas','Zürich','Orbit','Señal','Kiosk','Ledger','Hôtel',
  'Metro','Pixel','Fjord','Düne','Quartz','Ember','Vélo','Harbor','Tundra']`;
const firstNames = `array['Zoë','José','Jürgen','Anaïs','Ana','Björn','Chloé','Daniel','Émile','Fatima','Grace',
  'Hugo','Inès','Jonas','Kai','Léa','Mateo','Noémie','Olaf','Priya']`;
const lastNames = `array['Müller','García','Nørgaard','Smith','Dubois','Kowalski','Østergaard','Rossi','Sánchez',
  'Tanaka','Novák','Öztürk','Brown','Laurent','Ivanova','Costa','Haas','Lefèvre','Young','Zhang']`;

export async function seedLargeOrganization(
  handle: DatabaseHandle,
  size: LargeOrganizationSize,
): Promise<LargeOrganization> {
  const run = (text: string, values: unknown[] = []) => handle.sql.executeSql(text, values);
  const { apps, versionsPerApp: perApp, staff, teams: teamCount, testers: testerCount } = size;
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
  const user = await insertUser(handle.db, { email: `bench-${stamp}@example.com`, isActive: true });
  const token = await new TokenService({ db: handle.db }).issueApiKey(user.id);
  const org = await run(
    `insert into organizations (title, subdomain, plan_id, sdk_key)
     select 'Bench', $1, id, md5(random()::text) from plans where code = 'unlimited' returning id`,
    [`bench-${stamp}`],
  );
  const organizationId = Number(org.rows[0]?.id);
  await run("insert into memberships (organization_id, user_id, role) values ($1, $2, 1)", [
    organizationId,
    user.id,
  ]);
  await run(
    `insert into projects (organization_id, title)
     select $1, (${words})[1 + n % 20] || ' ' || (${words})[1 + (n / 20) % 20] || ' ' || n
     from generate_series(1, $2::int) n`,
    [organizationId, apps],
  );
  await run(
    `insert into applications (organization_id, project_id, title, app_type, app_key, bundle_id, updated_at)
     select $1, p.id, p.title, (p.id % 4)::smallint, md5(p.id::text || random()::text),
            'com.' || lower((${words})[1 + (p.id / 7) % 20]) || '.app' || p.id, now() - (p.id || ' seconds')::interval
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
  // One pass over the versions, grouped, rather than a lookup per app.
  await run(
    `update applications a set versions_count = newest.n, current_version_id = newest.id
     from (select application_id, count(*)::int as n, max(id) as id from versions
           where organization_id = $1::bigint group by application_id) newest
     where a.id = newest.application_id`,
    [organizationId],
  );
  await run(
    `update organizations set builds_count = $2::int, projects_count = $3::int, space_used_bytes = $2::int * 1048576::bigint
     where id = $1`,
    [organizationId, apps * perApp, apps],
  );
  await run(
    `insert into users (email, first_name, last_name, is_active)
     select lower((${firstNames})[1 + n % 20]) || '.' || n || '@staff-' || $1::text || '.example.com',
            (${firstNames})[1 + n % 20], (${lastNames})[1 + (n / 20) % 20], true
     from generate_series(1, $2::int) n`,
    [stamp, staff],
  );
  await run(
    `insert into memberships (organization_id, user_id, role)
     select $1, u.id, (2 + u.id % 4)::smallint from users u where u.email like $2`,
    [organizationId, `%@staff-${stamp}.example.com`],
  );
  await run(
    `insert into teams (organization_id, title)
     select $1, (${words})[1 + n % 20] || ' team ' || n from generate_series(1, $2::int) n`,
    [organizationId, teamCount],
  );
  const testerApp = await run("select id from applications where organization_id = $1 order by id limit 1", [
    organizationId,
  ]);
  const testerAppId = Number(testerApp.rows[0]?.id);
  await run(
    `insert into testers (organization_id, application_id, email, first_name, last_name)
     select $1, $2, lower((${lastNames})[1 + n % 20]) || '.' || n || '@testers.example.org',
            (${firstNames})[1 + (n / 20) % 20], (${lastNames})[1 + n % 20]
     from generate_series(1, $3::int) n`,
    [organizationId, testerAppId, testerCount],
  );
  return { token, userId: user.id, organizationId, testerAppId };
}
