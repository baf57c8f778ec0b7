/**
 * Owns the testers of an app, their groups, the app's extra recipient addresses (app mails) and
 * the CSV import of testers. Everything is reached through the app: the caller needs
 * `tester:manage` on it, so another organization's objects are "not found".
 */
import type {
  AppMail,
  CreateAppMailInput,
  CreateTesterGroupInput,
  CreateTesterInput,
  GroupWithTesters,
  Tester,
  TesterCsvResult,
  TesterGroup,
} from "@tarmac/contracts";
import { tester as testerSchema } from "@tarmac/contracts";
import { AppError } from "../../http/errors.ts";
import type { PageParams } from "../../http/pagination.ts";
import type { GenerationCache } from "../../platform/cache/generation-cache.ts";
import { keptRecords, type ListCaches, pageOfList } from "../../platform/cache/list-caches.ts";
import type { Database } from "../../platform/db/client.ts";
import type { ApplicationService } from "../application/application.service.ts";
import type { Caller } from "../organization/membership.service.ts";
import type { UserService } from "../users/user.service.ts";
import { parseTesterCsv } from "./lib/tester-csv.ts";
import {
  addGroupMembers,
  deleteAppMail,
  deleteGroup,
  deleteTester,
  findAppMail,
  findAppMailsByIds,
  findGroup,
  findGroupByTitle,
  findGroupsOfApp,
  findTester,
  findTestersByEmail,
  findTestersByIds,
  insertAppMail,
  insertGroup,
  insertTesters,
  isTesterOfApp,
  listAllTesters,
  listAppMails,
  listGroupIdsOfTesters,
  listGroups,
  listTesterSearchTexts,
  replaceGroupsOfTester,
  type TesterRow,
  updateTester,
} from "./tester.repo.ts";

export class CsvImportError extends AppError {
  constructor(readonly errors: { line: number; message: string }[]) {
    super("csv_invalid", 400, "The file has errors; nothing was imported.");
  }

  override body() {
    return { errors: this.errors };
  }
}

export class TesterService {
  constructor(
    private readonly deps: {
      db: Database;
      apps: ApplicationService;
      users: UserService;
      lists: ListCaches;
      /** Testers as shown, serialized, per directory version (see list()). */
      records: GenerationCache<string>;
    },
  ) {}

  /** Account ids by lower-cased address, to link testers to the people who already sign in. */
  private async accountIdsByEmail(emails: string[], db: Database): Promise<Map<string, number>> {
    const accounts = await this.deps.users.findByEmails(emails, db);
    return new Map([...accounts].map(([email, account]) => [email, account.id]));
  }

  /** Whether the signed-in person is a tester of the app (by address or linked account). */
  isTesterOf(appId: number, person: { userId: number; email: string }): Promise<boolean> {
    return isTesterOfApp(this.deps.db, appId, person);
  }

  /** Testers of the app among `ids`. */
  findTesters(appId: number, ids: number[]) {
    return findTestersByIds(this.deps.db, appId, ids);
  }

  /** Saved addresses of the app among `ids`, or all of them. */
  findAppMails(appId: number, ids?: number[]) {
    return ids ? findAppMailsByIds(this.deps.db, appId, ids) : listAppMails(this.deps.db, appId);
  }

  /** The app, when the caller may manage its testers. */
  async getManagedApp(userId: number, appId: number, db: Database = this.deps.db) {
    return (await this.deps.apps.getAccessibleApp(userId, appId, "tester:manage", db)).app;
  }

  async list(
    caller: Caller,
    query: { app?: number; groups?: number; search?: string },
    params: PageParams,
  ): Promise<{ count: number; results: string[] }> {
    let appId = query.app;
    if (query.groups !== undefined) {
      const group = await findGroup(this.deps.db, query.groups);
      if (!group || (appId !== undefined && group.applicationId !== appId)) throw AppError.notFound();
      appId = group.applicationId;
    }
    if (appId === undefined) throw AppError.validation({ app: ["Give app or groups."] });
    const { member } = await this.deps.apps.getAccessibleApp(caller, appId, "tester:manage");
    // The app's testers (or a group's) by address, kept per directory version: pages, counts
    // and searches by name or address read nothing but the page's rows.
    const filter = { appId, groupId: query.groups };
    const listed = await pageOfList(
      this.deps.lists,
      {
        key: `testers ${appId} ${query.groups ?? "all"}`,
        generation: member.directoryVersion,
        load: () => listTesterSearchTexts(this.deps.db, filter),
      },
      query.search || undefined,
      { offset: params.offset, limit: params.pageSize },
    );
    // Each tester as shown is kept per directory version too (their groups move it as well).
    const results = await keptRecords(
      this.deps.records,
      member.directoryVersion,
      listed.ids,
      (id) => `tester ${id}`,
      async (missing) => {
        const rows = await findTestersByIds(this.deps.db, appId, missing);
        // Shaped by the response schema once, here, and kept serialized.
        return (await this.present(rows)).map((record) => ({
          id: record.id,
          record: JSON.stringify(testerSchema.parse(record)),
        }));
      },
    );
    return { count: listed.count, results };
  }

  /** Adds the tester, or updates the one with this address; the account with the address is linked. */
  async add(userId: number, input: CreateTesterInput): Promise<{ tester: Tester; created: boolean }> {
    const groups = input.groups ?? [];
    const app = await this.getManagedApp(userId, await this.appOfTester(input.app, groups));
    const found = await findGroupsOfApp(this.deps.db, app.id, groups);
    if (found.length !== new Set(groups).size) {
      throw AppError.validation({ groups: ["Every group must be a group of this app."] });
    }
    const { row, created } = await this.deps.db.transaction(async (tx) => {
      const linked = (await this.accountIdsByEmail([input.email], tx)).get(input.email) ?? null;
      const [existing] = await findTestersByEmail(tx, app.id, [input.email]);
      let row: TesterRow;
      if (existing) {
        await updateTester(tx, existing.id, {
          firstName: input.first_name ?? existing.firstName,
          lastName: input.last_name ?? existing.lastName,
          userId: linked ?? existing.userId,
        });
        row = (await findTester(tx, existing.id)) as TesterRow;
      } else {
        const [inserted] = await insertTesters(tx, [
          {
            organizationId: app.organizationId,
            applicationId: app.id,
            email: input.email,
            firstName: input.first_name ?? "",
            lastName: input.last_name ?? "",
            userId: linked,
          },
        ]);
        row = inserted as TesterRow;
      }
      if (input.groups !== undefined) await replaceGroupsOfTester(tx, row.id, [...new Set(groups)]);
      return { row, created: !existing };
    });
    const [tester] = await this.present([row]);
    return { tester: tester as Tester, created };
  }

  /** The app a new tester joins: `app`, else that of the first group named. */
  private async appOfTester(appId: number | null | undefined, groups: number[]): Promise<number> {
    if (appId) return appId;
    const [first] = groups;
    if (first === undefined) throw AppError.validation({ app: ["This field is required."] });
    const group = await findGroup(this.deps.db, first);
    if (!group) throw AppError.validation({ groups: ["Every group must be a group of this app."] });
    return group.applicationId;
  }

  async remove(userId: number, testerId: number): Promise<void> {
    const row = await findTester(this.deps.db, testerId);
    if (!row) throw AppError.notFound();
    await this.getManagedApp(userId, row.applicationId);
    await deleteTester(this.deps.db, row.id);
  }

  async listGroups(userId: number, appId: number): Promise<TesterGroup[]> {
    await this.getManagedApp(userId, appId);
    const rows = await listGroups(this.deps.db, appId);
    return rows.map((row) => ({
      id: row.id,
      app: row.applicationId,
      title: row.title,
      testers_count: Number(row.testersCount),
      testers: (row.testerIds ?? []).map(Number),
    }));
  }

  async createGroup(userId: number, input: CreateTesterGroupInput): Promise<TesterGroup> {
    const app = await this.getManagedApp(userId, input.app);
    const duplicate = () => AppError.validation({ title: ["A group with this title already exists."] });
    if (await findGroupByTitle(this.deps.db, app.id, input.title)) throw duplicate();
    const row = await insertGroup(this.deps.db, {
      organizationId: app.organizationId,
      applicationId: app.id,
      title: input.title,
    });
    if (!row) throw duplicate();
    return { id: row.id, app: row.applicationId, title: row.title, testers_count: 0, testers: [] };
  }

  /** The group goes with its memberships; its testers stay testers of the app. */
  async removeGroup(userId: number, groupId: number): Promise<void> {
    const row = await findGroup(this.deps.db, groupId);
    if (!row) throw AppError.notFound();
    await this.getManagedApp(userId, row.applicationId);
    await deleteGroup(this.deps.db, row.id);
  }

  async listAppMails(userId: number, appId: number): Promise<AppMail[]> {
    await this.getManagedApp(userId, appId);
    return (await listAppMails(this.deps.db, appId)).map(presentAppMail);
  }

  async createAppMail(userId: number, input: CreateAppMailInput): Promise<AppMail> {
    const app = await this.getManagedApp(userId, input.app);
    const row = await insertAppMail(this.deps.db, {
      organizationId: app.organizationId,
      applicationId: app.id,
      email: input.email,
    });
    if (!row) throw AppError.validation({ email: ["This address is already on the list."] });
    return presentAppMail(row);
  }

  async removeAppMail(userId: number, id: number): Promise<void> {
    const row = await findAppMail(this.deps.db, id);
    if (!row) throw AppError.notFound();
    await this.getManagedApp(userId, row.applicationId);
    await deleteAppMail(this.deps.db, row.id);
  }

  /** Every group of the app with its testers (the groups tab and the send dialog). */
  async usersInGroups(userId: number, appId: number): Promise<GroupWithTesters[]> {
    await this.getManagedApp(userId, appId);
    return (await this.groupsWithTesters(appId)).groups;
  }

  async groupsWithTesters(appId: number, db: Database = this.deps.db) {
    const [groups, rows] = await Promise.all([listGroups(db, appId), listAllTesters(db, appId)]);
    const links = await listGroupIdsOfTesters(
      db,
      rows.map((row) => row.id),
    );
    const byId = new Map(rows.map((row) => [row.id, row]));
    const grouped = new Set(links.map((link) => link.testerId));
    return {
      groups: groups.map((group) => ({
        id: group.id,
        app: group.applicationId,
        title: group.title,
        testers: links
          .filter((link) => link.groupId === group.id)
          .map((link) => byId.get(link.testerId))
          .filter((row): row is TesterRow => row !== undefined)
          .map(presentGroupTester),
      })),
      ungrouped: rows.filter((row) => !grouped.has(row.id)).map(presentGroupTester),
    };
  }

  /**
   * Imports a tester list into a group. Any bad line rejects the whole file (nothing applied),
   * so a fixed file can simply be uploaded again.
   */
  async importCsv(
    userId: number,
    input: { app: number; group: number; csv: Buffer },
  ): Promise<TesterCsvResult> {
    const app = await this.getManagedApp(userId, input.app);
    const group = await findGroup(this.deps.db, input.group);
    if (!group || group.applicationId !== app.id) {
      throw AppError.validation({ group: ["The group must be a group of this app."] });
    }
    const parsed = parseTesterCsv(input.csv);
    if (!parsed.ok) throw new CsvImportError(parsed.errors);
    const rows = parsed.rows.map((row) => ({ ...row, email: row.email.toLowerCase() }));
    return this.deps.db.transaction(async (tx) => {
      const emails = rows.map((row) => row.email);
      const existing = new Map((await findTestersByEmail(tx, app.id, emails)).map((row) => [row.email, row]));
      const accounts = await this.accountIdsByEmail(emails, tx);
      const fresh = rows.filter((row) => !existing.has(row.email));
      const inserted = await insertTesters(
        tx,
        fresh.map((row) => ({
          organizationId: app.organizationId,
          applicationId: app.id,
          email: row.email,
          firstName: row.first_name,
          lastName: row.last_name,
          userId: accounts.get(row.email) ?? null,
        })),
      );
      let updated = 0;
      for (const row of rows) {
        const old = existing.get(row.email);
        if (!old) continue;
        updated += 1;
        const names = {
          firstName: row.first_name || old.firstName,
          lastName: row.last_name || old.lastName,
          userId: accounts.get(row.email) ?? old.userId,
        };
        if (
          names.firstName !== old.firstName ||
          names.lastName !== old.lastName ||
          names.userId !== old.userId
        ) {
          await updateTester(tx, old.id, names);
        }
      }
      const ids = [...inserted.map((row) => row.id), ...[...existing.values()].map((row) => row.id)];
      await addGroupMembers(
        tx,
        ids.map((testerId) => ({ groupId: group.id, testerId })),
      );
      return { created: inserted.length, updated, duplicates: parsed.duplicates };
    });
  }

  async present(rows: TesterRow[], db: Database = this.deps.db): Promise<Tester[]> {
    const links = await listGroupIdsOfTesters(
      db,
      rows.map((row) => row.id),
    );
    return rows.map((row) => ({
      id: row.id,
      email: row.email,
      first_name: row.firstName,
      last_name: row.lastName,
      app: row.applicationId,
      groups: links.filter((link) => link.testerId === row.id).map((link) => link.groupId),
      user: row.userId,
      created_at: row.createdAt.toISOString(),
    }));
  }
}

export function presentAppMail(row: {
  id: number;
  applicationId: number;
  email: string;
  createdAt: Date;
}): AppMail {
  return { id: row.id, app: row.applicationId, email: row.email, created_at: row.createdAt.toISOString() };
}

function presentGroupTester(row: TesterRow) {
  return {
    id: row.id,
    email: row.email,
    first_name: row.firstName,
    last_name: row.lastName,
    user: row.userId,
  };
}
