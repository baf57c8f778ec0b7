import type { ApplicationRecord } from "@tarmac/contracts";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApplicationRow, VersionRow } from "../../src/modules/application/application.repo.ts";
import { applications, versions } from "../../src/modules/application/application.tables.ts";
import type { MemberContext } from "../../src/modules/organization/membership.service.ts";
import { addProjectMember, createApp, createProject, createVersion } from "../helpers/app-factories.ts";
import { authHeader } from "../helpers/factories.ts";
import { addMember, createOrganization } from "../helpers/org-factories.ts";
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

  it("keep each project's context (title, apps, members) as its rows are, after every kind of write", async () => {
    const { organization } = await createOrganization(t);
    const run = (text: string, values: unknown[] = []) => t.database.sql.executeSql(text, values);
    /** The context as the rows define it, read without the stored text. */
    const expected = async (projectId: number) => {
      const [project] = (await run("select id, title from projects where id = $1", [projectId])).rows;
      const apps = await run(
        "select id, title, app_type, environment from applications where project_id = $1 order by id",
        [projectId],
      );
      const members = await run(
        "select user_id from project_members where project_id = $1 order by user_id",
        [projectId],
      );
      return {
        id: Number(project?.id),
        title: project?.title,
        apps: apps.rows.map((row) => ({
          id: Number(row.id),
          title: row.title,
          appType: Number(row.app_type),
          environment: row.environment,
        })),
        memberIds: members.rows.map((row) => Number(row.user_id)),
      };
    };
    const stored = async (projectId: number) =>
      JSON.parse(
        String(
          (await run("select context_json from projects where id = $1", [projectId])).rows[0]?.context_json,
        ),
      );
    const expectCurrent = async (...projectIds: number[]) => {
      for (const id of projectIds) expect(await stored(id)).toStrictEqual(await expected(id));
      // Each app also keeps its project's folded title, which the apps list's search matches.
      const apps = await run(
        `select a.project_search_text as kept, p.search_text as folded from applications a
         join projects p on p.id = a.project_id where a.project_id = any($1::bigint[])`,
        [projectIds],
      );
      for (const app of apps.rows) expect(app.kept).toBe(app.folded);
    };

    const project = await createProject(t, organization.id, awkward);
    const other = await createProject(t, organization.id, "Other");
    expect(await stored(project.id)).toStrictEqual({
      id: project.id,
      title: awkward,
      apps: [],
      memberIds: [],
    });
    const android = await createApp(t, organization.id, { projectId: project.id, title: "Tram", appType: 0 });
    const ios = await createApp(t, organization.id, { projectId: project.id, title: awkward, appType: 1 });
    await expectCurrent(project.id);
    expect((await stored(project.id)).apps.map((app: { id: number }) => app.id)).toEqual([
      android.id,
      ios.id,
    ]);

    const first = await addMember(t, organization.id, 3);
    const second = await addMember(t, organization.id, 3);
    await addProjectMember(t, project.id, second.user.id);
    await addProjectMember(t, project.id, first.user.id);
    await expectCurrent(project.id);
    expect((await stored(project.id)).memberIds).toEqual(
      [first.user.id, second.user.id].sort((a, b) => a - b),
    );

    await run("update applications set title = 'Tram 2', environment = 'Staging' where id = $1", [
      android.id,
    ]);
    await run("update projects set title = 'Renamed' where id = $1", [project.id]);
    await run("update applications set project_id = $1 where id = $2", [other.id, ios.id]);
    await run("update project_members set project_id = $1 where user_id = $2 and project_id = $3", [
      other.id,
      first.user.id,
      project.id,
    ]);
    await expectCurrent(project.id, other.id);
    expect((await stored(other.id)).apps.map((app: { id: number }) => app.id)).toEqual([ios.id]);
    const kept = await run("select project_search_text from applications where id = $1", [android.id]);
    expect(kept.rows[0]?.project_search_text).toBe("renamed");

    // Many apps and members in one statement each, then gone in one statement each.
    await run(
      `insert into applications (organization_id, project_id, title, app_type, environment, app_key)
       select $1, $2, 'Bulk ' || n, n % 4, 'Env ' || n, 'bulk-' || $2::bigint || '-' || n from generate_series(1, 30) n`,
      [organization.id, other.id],
    );
    await run(
      `insert into project_members (project_id, user_id, role)
       select $1, m.user_id, 3 from memberships m where m.organization_id = $2
       on conflict do nothing`,
      [project.id, organization.id],
    );
    await expectCurrent(project.id, other.id);
    expect((await stored(other.id)).apps).toHaveLength(31);
    await run("delete from applications where project_id = $1 and title like 'Bulk %'", [other.id]);
    await run("delete from project_members where project_id = $1", [project.id]);
    await run("delete from applications where id = $1", [android.id]);
    await expectCurrent(project.id, other.id);
    expect(await stored(project.id)).toStrictEqual({
      id: project.id,
      title: "Renamed",
      apps: [],
      memberIds: [],
    });
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

  it("lists each app with the record the presenter makes of it, but for its previous builds", async () => {
    const { organization, owner } = await createOrganization(t);
    const member = await addMember(t, organization.id, 4);
    // A title that JSON must escape, for the fields the database writes into list records.
    const project = await createProject(t, organization.id, 'Ferry "Line" \\ Zürich\t');
    const android = await createApp(t, organization.id, {
      projectId: project.id,
      title: "Ferry",
      appType: 1,
    });
    const ios = await createApp(t, organization.id, {
      projectId: project.id,
      title: "Ferry iOS",
      appType: 0,
    });
    await addProjectMember(t, project.id, member.user.id);
    await createVersion(t, android, { uploadedBy: owner.user.id, withIcon: true, version: "1.0" });
    await createVersion(t, android, { uploadedBy: member.user.id, withIcon: true, version: "1.1" });
    // A build no one is recorded as uploading, and an app of its own project without builds.
    await createVersion(t, ios, { version: "2.0" });
    const alone = await createApp(t, organization.id, { title: "Ferry Alone", appType: 1 });
    const updated = await t.app.inject({
      method: "PATCH",
      url: `/api/applications/${android.id}/`,
      headers: authHeader(owner.token),
      payload: { slack_webhook: "https://hooks.slack.com/services/T0/B0/ferry" },
    });
    expect(updated.statusCode).toBe(200);
    // Signed links carry their moment; the rest must be the same, field for field.
    const withoutLinks = (value: unknown) =>
      JSON.parse(JSON.stringify(value), (key, field) =>
        key === "icon" || key === "download_url" ? typeof field : field,
      );
    const listedFor = async (token: string, role: number) => {
      const listed = await t.app.inject({
        url: `/api/applications/?org=${organization.id}&title=ferry`,
        headers: authHeader(token),
      });
      expect(listed.statusCode).toBe(200);
      const records = listed.json().results as Array<{ id: number }>;
      for (const app of role === 1 ? [android, ios, alone] : [android, ios]) {
        const record = records.find((row) => row.id === app.id);
        const row = await read<ApplicationRow>(applications, app.id);
        const presented = await t.services.applications.presentApp(row, { role } as MemberContext);
        expect(withoutLinks(record)).toEqual(withoutLinks({ ...presented, previous_versions: [] }));
      }
      return records;
    };
    const records = await listedFor(owner.token, 1);
    const record = records.find((row) => row.id === android.id) as ApplicationRecord;
    expect(record.current_version?.uploaded_by).toEqual({
      id: member.user.id,
      email: member.user.email,
      first_name: member.user.firstName,
      last_name: member.user.lastName,
    });
    expect(record.slack_webhook).toBe("https://hooks.slack.com/services/T0/B0/ferry");
    expect(record.users).toEqual([member.user.id]);
    expect(record.project_title).toBe('Ferry "Line" \\ Zürich\t');
    expect(record.other_platform).toMatchObject([{ id: ios.id, title: "Ferry iOS", app_type: 0 }]);
    expect(record.base_app).toBe(android.id);
    expect(record.current_version?.icon).toMatch(/^http/);
    expect(records.find((row) => row.id === ios.id)).toMatchObject({
      new_version: "2.0",
      base_app: android.id,
      current_version: { uploaded_by: null, title: "Ferry iOS", app_type: 0 },
    });
    expect(records.find((row) => row.id === alone.id)).toMatchObject({
      new_version: "",
      base_app: alone.id,
      users: [],
      other_platform: [],
      icon: null,
      current_version: null,
    });
    // A member sees the apps of the projects they are in, without the webhook.
    const seen = await listedFor(member.token, 4);
    expect(seen.map((row) => row.id).sort()).toEqual([android.id, ios.id].sort());
    expect(seen.find((row) => row.id === android.id)).toMatchObject({ slack_webhook: "" });
  });
});
