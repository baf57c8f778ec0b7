// Testers, their groups, CSV import, extra app mail addresses and sending builds to testers.
import type {
  AppMail,
  CreateTesterInput,
  GroupWithTesters,
  Page,
  SendToTestersInput,
  SendToTestersResult,
  Tester,
  TesterCsvResult,
  TesterGroup,
  TesterMailBatch,
  TesterMailPreview,
  TesterRecipients,
} from "@tarmac/contracts";
import { api, type QueryValue } from "./client.ts";

export type {
  AppMail,
  GroupWithTesters,
  SendToTestersResult,
  Tester,
  TesterCsvResult,
  TesterGroup,
  TesterMailBatch,
  TesterMailPreview,
  TesterRecipients,
};

/** What the dialog sends; fields with defaults may be left out. */
export type SendToTestersRequest = Partial<SendToTestersInput>;
/** Left out, `groups` keeps an existing tester's groups; given, it replaces them. */
export type NewTester = Pick<CreateTesterInput, "email" | "app" | "groups">;

export const TESTERS_PAGE_SIZE = 20;

export const testerKeys = {
  all: (appId: number) => ["testers", appId] as const,
  list: (appId: number, page: number, group: number | null) =>
    ["testers", appId, "list", page, group] as const,
  groups: (appId: number) => ["testers", appId, "groups"] as const,
  /** Every group with its testers (users_in_groups). */
  groupMembers: (appId: number) => ["testers", appId, "groups", "members"] as const,
  mails: (appId: number) => ["testers", appId, "mails"] as const,
  recipients: (appId: number, versionId: number | null) =>
    ["testers", appId, "recipients", versionId] as const,
};

/** With `group` only that group's testers (the spec's ?groups=). */
export function listTesters(appId: number, page: number, group: number | null) {
  return api.get<Page<Tester>>("/api/testers/", {
    query:
      group === null
        ? { app: appId, page, page_size: TESTERS_PAGE_SIZE }
        : { groups: group, page, page_size: TESTERS_PAGE_SIZE },
  });
}

export function addTester(input: NewTester) {
  return api.post<Tester>("/api/testers/", input);
}

export function removeTester(id: number) {
  return api.delete<null>(`/api/testers/${id}/`);
}

/** An app's lists are short: one page of the largest size holds them. */
const wholeList = { page_size: 100 };

export async function listTesterGroups(appId: number) {
  return (await api.get<Page<TesterGroup>>("/api/group-testers/", { query: { app: appId, ...wholeList } }))
    .results;
}

export function createTesterGroup(appId: number, title: string) {
  return api.post<TesterGroup>("/api/group-testers/", { app: appId, title });
}

export function deleteTesterGroup(id: number) {
  return api.delete<null>(`/api/group-testers/${id}/`);
}

export function fetchUsersInGroups(appId: number) {
  return api.get<GroupWithTesters[]>(`/api/applications/${appId}/users_in_groups/`);
}

/** A bad line makes the server answer 400 {errors: [{line, message}]} and apply nothing. */
export function uploadTesterCsv(appId: number, groupId: number, file: File) {
  const form = new FormData();
  form.append("app", String(appId));
  form.append("group", String(groupId));
  form.append("csv", file);
  return api.post<TesterCsvResult>("/api/upload-csv-app-group/", form);
}

export async function listAppMails(appId: number) {
  return (await api.get<Page<AppMail>>("/api/app-mails/", { query: { app: appId, ...wholeList } })).results;
}

export function addAppMail(appId: number, email: string) {
  return api.post<AppMail>("/api/app-mails/", { app: appId, email });
}

export function removeAppMail(id: number) {
  return api.delete<null>(`/api/app-mails/${id}/`);
}

export function fetchRecipients(appId: number, versionId: number | null) {
  return api.get<TesterRecipients>(`/api/app-teams/${appId}/`, { query: { ver: versionId ?? undefined } });
}

/** The payload as a query string: lists comma-separated, flags as 1/0. */
export function sendQuery(input: SendToTestersRequest): Record<string, QueryValue> {
  const query: Record<string, QueryValue> = {};
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      if (value.length > 0) query[key] = value.join(",");
    } else if (typeof value === "boolean") query[key] = value ? 1 : 0;
    else query[key] = value;
  }
  return query;
}

export function previewTesterMail(appId: number, input: SendToTestersRequest) {
  return api.get<TesterMailPreview>(`/api/app-teams/${appId}/`, {
    query: { emulate_email: 1, ...sendQuery(input) },
  });
}

export function sendToTesters(appId: number, input: SendToTestersRequest) {
  return api.post<SendToTestersResult>(`/api/app-teams/${appId}/`, input);
}
