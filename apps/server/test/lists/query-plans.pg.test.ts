import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  findVersionsByIds,
  findVersionsWithUploaders,
} from "../../src/modules/application/application.repo.ts";
import {
  findListedApplications,
  listApplicationIds,
  listApplications,
} from "../../src/modules/application/application-list.repo.ts";
import { listProjectMemberSearchTexts } from "../../src/modules/application/project-member.repo.ts";
import {
  findApplicationWithBuilds,
  listVersionIds,
  readBuildsPage,
} from "../../src/modules/application/version.repo.ts";
import {
  findMemberRowsInOrder,
  listMemberSearchTexts,
} from "../../src/modules/organization/membership.repo.ts";
import { listTeams } from "../../src/modules/team/team.repo.ts";
import { findTestersByIds, listTesterSearchTexts } from "../../src/modules/tester/tester.repo.ts";
import type { DatabaseHandle } from "../../src/platform/db/client.ts";
import { type LargeOrganization, seedLargeOrganization } from "../helpers/large-organization.ts";
import { createTestDatabase } from "../helpers/test-database.ts";

// The plans PostgreSQL chooses at scale (tens of thousands of apps, hundreds of thousands of
// versions, statistics gathered): the hot lists must reach their rows through indexes. Runs in
// the PostgreSQL pass, the database large catalogs live on.

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  Plans?: PlanNode[];
}

function nodesOf(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodesOf)];
}

describe("query plans of the lists at scale", () => {
  let handle: DatabaseHandle;
  let org: LargeOrganization;
  const statements: Array<{ query: string; params: unknown[] }> = [];

  beforeAll(async () => {
    handle = await createTestDatabase({ logQuery: (query, params) => statements.push({ query, params }) });
    org = await seedLargeOrganization(handle, {
      apps: 50_000,
      versionsPerApp: 8,
      staff: 3_000,
      teams: 500,
      testers: 20_000,
    });
    // Other organizations share every table, as on any instance: this one holds a fifth of it.
    await seedLargeOrganization(handle, {
      apps: 90_000,
      versionsPerApp: 1,
      staff: 20_000,
      teams: 50,
      testers: 100,
    });
    // Every staff member joins one of the first projects.
    await handle.sql.executeSql(
      `insert into project_members (project_id, user_id, role, is_access_all_envs, access_envs)
       select p.id, m.user_id, 5, true, '{}' from memberships m
       join projects p on p.organization_id = m.organization_id and p.id = (
         select min(id) from projects where organization_id = m.organization_id) + m.user_id % 200
       where m.organization_id = $1 and m.role > 1`,
      [org.organizationId],
    );
    // As autovacuum leaves a settled table: statistics and the visibility map.
    await handle.sql.executeSql("vacuum analyze");
  }, 240_000);

  afterAll(async () => {
    await handle?.close();
  });

  /** The plans of every statement `work` sends. */
  async function plansOf(work: () => Promise<unknown>): Promise<PlanNode[][]> {
    statements.length = 0;
    await work();
    const sent = statements.splice(0);
    expect(sent.length).toBeGreaterThan(0);
    const plans: PlanNode[][] = [];
    for (const { query, params } of sent) {
      const result = await handle.sql.executeSql(`explain (format json) ${query}`, params);
      const [document] = (result.rows[0] as { "QUERY PLAN": [{ Plan: PlanNode }] })["QUERY PLAN"];
      plans.push(nodesOf(document.Plan));
    }
    return plans;
  }

  const seqScansOf = (plans: PlanNode[][], tables: string[]) =>
    plans
      .flat()
      .filter((node) => node["Node Type"] === "Seq Scan" && tables.includes(node["Relation Name"] ?? ""))
      .map((node) => node["Relation Name"]);

  it("pages and filters the apps list without scanning applications or versions", async () => {
    for (const filter of [{}, { appType: 1 }, { memberUserId: org.userId }]) {
      const plans = await plansOf(() =>
        listApplications(handle.db, { organizationId: org.organizationId, ...filter }),
      );
      expect(seqScansOf(plans, ["applications", "versions", "projects"]), JSON.stringify(filter)).toEqual([]);
    }
    // The whole list comes in the index's order, from the index alone: no sort, no table.
    // So do its ids alone, which paging reads.
    for (const read of [listApplications, listApplicationIds]) {
      const whole = (await plansOf(() => read(handle.db, { organizationId: org.organizationId }))).flat();
      expect(
        whole.map((node) => node["Node Type"]),
        read.name,
      ).not.toContain("Sort");
      expect(
        whole.map((node) => node["Node Type"]),
        read.name,
      ).toContain("Index Only Scan");
    }
    const listed = await listApplications(handle.db, { organizationId: org.organizationId });
    const idsAlone = await listApplicationIds(handle.db, { organizationId: org.organizationId });
    expect(Array.from(idsAlone.ids)).toEqual(Array.from(listed.ids));
    // The install list (ready current builds, newest first) reaches each current build by its
    // key; which way it reads the organization's apps once per catalog version is the planner's
    // choice of the moment (a parallel scan when the organization is a large share of the table).
    const installable = await plansOf(() =>
      listApplications(handle.db, { organizationId: org.organizationId, installable: { saleOnly: true } }),
    );
    expect(seqScansOf(installable, ["versions", "projects"])).toEqual([]);
    // A page: its apps with their current builds and uploaders, and builds by id, by key.
    const { ids } = await listApplications(handle.db, { organizationId: org.organizationId });
    const page = await plansOf(async () => {
      const listed = await findListedApplications(
        handle.db,
        org.organizationId,
        Array.from(ids.subarray(40_000, 40_020)),
      );
      expect(listed).toHaveLength(20);
      await findVersionsByIds(
        handle.db,
        org.organizationId,
        listed.map((row) => row.app.currentVersionId as number),
      );
    });
    expect(seqScansOf(page, ["applications", "versions", "users", "projects", "project_members"])).toEqual(
      [],
    );
  });

  it("pages an app's builds through the (application, id) index", async () => {
    const [appId] = (
      await handle.sql.executeSql("select id from applications where organization_id = $1 limit 1", [
        org.organizationId,
      ])
    ).rows.map((row) => Number(row.id));
    for (const onlyReleased of [false, true]) {
      const plans = await plansOf(async () => {
        // A list no one has read: the first page and the whole list's ids in one statement.
        const first = await readBuildsPage(handle.db, org.organizationId, appId as number, onlyReleased, {
          offset: 0,
          limit: 20,
        });
        expect(first.rows.length).toBeGreaterThan(0);
        expect(first.ids?.length).toBe(8);
        // An app with few builds: its whole list with uploaders.
        const whole = await readBuildsPage(
          handle.db,
          org.organizationId,
          appId as number,
          onlyReleased,
          { offset: 0, limit: 20 },
          8,
        );
        expect(Array.from(whole.ids ?? [])).toEqual(Array.from(first.ids ?? []));
        expect(whole.rows.map((row) => row.id)).toEqual(first.rows.map((row) => row.id));
        // An app not seen before: its row and its whole list, in one statement, the same rows.
        const releasedOnlyIn = onlyReleased ? [org.organizationId] : [];
        const withBuilds = await findApplicationWithBuilds(handle.db, appId as number, releasedOnlyIn);
        expect(withBuilds?.app.id).toBe(appId);
        expect(withBuilds?.builds).toEqual(whole.rows);
        // A kept list: a page by id, and the list alone (past the end).
        await findVersionsWithUploaders(handle.db, org.organizationId, Array.from(first.ids ?? []));
        await listVersionIds(handle.db, org.organizationId, appId as number, onlyReleased);
      });
      expect(seqScansOf(plans, ["applications", "versions", "users"])).toEqual([]);
    }
  });

  it("reads testers, staff and project members by index", async () => {
    // An app's testers are read whole once per directory version (by address), then paged by key.
    const { ids } = await listTesterSearchTexts(handle.db, { appId: org.testerAppId });
    expect(ids.length).toBe(20_000);
    const testerPage = await plansOf(() =>
      findTestersByIds(handle.db, org.testerAppId, Array.from(ids.subarray(9_000, 9_020))),
    );
    expect(seqScansOf(testerPage, ["testers"])).toEqual([]);

    const staffList = await plansOf(() =>
      listMemberSearchTexts(handle.db, org.organizationId, { order: "role" }),
    );
    expect(seqScansOf(staffList, ["memberships"])).toEqual([]);
    // Searches run over the kept list; a page of members is then read by key.
    const { ids: memberIds } = await listMemberSearchTexts(handle.db, org.organizationId, { order: "role" });
    const staff = await plansOf(() =>
      findMemberRowsInOrder(handle.db, org.organizationId, Array.from(memberIds.subarray(1_000, 1_020))),
    );
    expect(seqScansOf(staff, ["users", "memberships"])).toEqual([]);

    // Teams number in the hundreds: reading them whole is the right plan, and the search answers.
    const teams = await listTeams(handle.db, {
      organizationIds: [org.organizationId],
      search: "TEAM 123",
      limit: 20,
      offset: 0,
    });
    expect(teams.rows.map((row) => row.title)).toEqual(["Pulse team 123"]);

    const [projectId] = (
      await handle.sql.executeSql("select id from projects where organization_id = $1 limit 1", [
        org.organizationId,
      ])
    ).rows.map((row) => Number(row.id));
    // A project's members are read whole once per directory version, by the project's key.
    const members = await plansOf(() => listProjectMemberSearchTexts(handle.db, projectId as number));
    expect(seqScansOf(members, ["users", "project_members"])).toEqual([]);
  });
});
