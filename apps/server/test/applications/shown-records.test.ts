import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApplicationRow, VersionRow } from "../../src/modules/application/application.repo.ts";
import { applications, versions } from "../../src/modules/application/application.tables.ts";
import { createApp, createVersion } from "../helpers/app-factories.ts";
import { createOrganization } from "../helpers/org-factories.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

/** What a build's record shows of its own row, written out from the row as the API defines it. */
function expectedVersionFields(row: VersionRow) {
  return {
    id: row.id,
    app: row.applicationId,
    version: row.version,
    build_version_number: row.buildNumber,
    date: row.createdAt.toISOString(),
    state: ["processing", "ready", "failed"].includes(row.state) ? row.state : "failed",
    file_name: row.fileName,
    file_size: row.fileSize,
    sha256: row.sha256,
    content_type: row.contentType,
    bundle_id: row.bundleId,
    min_os_version: row.minOsVersion,
    whats_new: row.whatsNew,
    comment: row.comment,
    ready_to_sale: row.readyToSale,
    git_branch: row.gitBranch,
    git_tag: row.gitTag,
    git_commit: row.gitCommit,
    git_url: row.gitUrl,
    build_type: row.buildType,
    custom_bundle_version: row.customBundleVersion,
    download_count: row.downloadCount,
    install_count: row.installCount,
    has_universal_apk: Boolean(row.universalApkKey),
    metadata: row.buildInfo ?? {},
  };
}

function expectedApplicationFields(row: ApplicationRow) {
  return {
    id: row.id,
    title: row.title,
    app_type: row.appType,
    project_app: row.projectId,
    environment: row.environment,
    slack_channel: row.slackChannel,
    description: row.description,
    organization: row.organizationId,
    distribution: [],
    team_detail: [],
    count_versions: row.versionsCount,
    upload_path: `/api/app_upload/${row.appKey}/`,
    ready_to_sale: row.readyToSale,
    feedback_enabled: row.feedbackEnabled,
    autoupdate_enabled: row.autoUpdateEnabled,
    app_key: row.appKey,
    unique_app_id: row.bundleId,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

const awkward = 'Café "Zürich" \\ tab\t line\nend 🚀 </script> \u0001';

describe("records rendered by the database", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const read = async <T>(table: typeof applications | typeof versions, id: number) =>
    (await t.database.db.select().from(table).where(sql`id = ${id}`))[0] as T;

  it("hold a build's and an app's own fields as the API shows them, after every kind of write", async () => {
    const { organization } = await createOrganization(t);
    const app = await createApp(t, organization.id, { bundleId: "ch.zürich.tram" });
    const version = await createVersion(t, app);
    // Values the JSON must carry exactly: quotes, backslashes, control characters, astral
    // characters, microseconds (JavaScript keeps milliseconds), nulls, nested metadata.
    await t.database.sql.executeSql(
      `update versions set whats_new = $1, comment = $1, git_branch = $1, git_tag = null, state = 'odd',
         universal_apk_key = '', created_at = '2026-03-04 05:06:07.891999+00', file_size = 9007199254740991,
         build_info = $2::jsonb, custom_bundle_version = 'ü' where id = $3`,
      [awkward, JSON.stringify({ name: awkward, nested: { list: [1, 2.5, null, true] } }), version.id],
    );
    await t.database.sql.executeSql(
      `update applications set title = $1, description = $1, slack_channel = '#ci',
         updated_at = '1999-12-31 23:59:59.999999+00', feedback_enabled = false where id = $2`,
      [awkward, app.id],
    );
    const versionRow = await read<VersionRow>(versions, version.id);
    expect(JSON.parse(versionRow.recordJson)).toStrictEqual(expectedVersionFields(versionRow));
    // Compact, as JSON.stringify writes it: no spaces between keys, values and fields.
    expect(versionRow.recordJson).toMatch(/^\{"id":\d+,"app":\d+,"version":/);
    expect(JSON.parse(versionRow.recordJson)).toMatchObject({
      state: "failed",
      has_universal_apk: false,
      date: "2026-03-04T05:06:07.891Z",
    });
    const appRow = await read<ApplicationRow>(applications, app.id);
    expect(JSON.parse(appRow.recordJson)).toStrictEqual(expectedApplicationFields(appRow));
    expect(JSON.parse(appRow.recordJson).updated_at).toBe("1999-12-31T23:59:59.999Z");

    // Counters and the current build are rows' own fields too: every update renders again.
    await t.database.sql.executeSql(
      "update versions set download_count = download_count + 3, universal_apk_key = 'k' where id = $1",
      [version.id],
    );
    const counted = await read<VersionRow>(versions, version.id);
    expect(JSON.parse(counted.recordJson)).toMatchObject({ download_count: 3, has_universal_apk: true });
    expect(JSON.parse(counted.recordJson)).toStrictEqual(expectedVersionFields(counted));
  });

  it("shows the same record through the API as the row defines", async () => {
    const { organization, owner } = await createOrganization(t);
    const app = await createApp(t, organization.id, { title: "Tram" });
    const version = await createVersion(t, app, { uploadedBy: owner.user.id, withIcon: true });
    const record = await t.services.applications.getRecord(organization.id, app.id);
    const versionRow = await read<VersionRow>(versions, version.id);
    const appRow = await read<ApplicationRow>(applications, app.id);
    expect(record).toMatchObject(expectedApplicationFields(appRow));
    expect(record.current_version).toMatchObject({
      ...expectedVersionFields(versionRow),
      title: "Tram",
      app_type: 0,
      uploaded_by: { id: owner.user.id, email: owner.user.email },
    });
    expect(record.current_version?.icon).toMatch(/^http/);
    expect(record.current_version?.download_url).toContain(`/api/dl/${version.id}/file/?expires=`);
    expect(record.new_version).toBe(versionRow.version);
  });
});
