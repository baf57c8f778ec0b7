// The organization's own mail server: its mail leaves from its own domain.
import type { MailServer, MailServerInput } from "@tarmac/contracts";
import { api } from "./client.ts";

export type { MailServer, MailServerInput };

export const mailServerKeys = { detail: (orgId: number) => ["mail-server", orgId] as const };

export function fetchMailServer(orgId: number) {
  return api.get<MailServer>(`/api/orgs-smtp/${orgId}/`);
}

/** The server connects (and logs in) before saving; an empty password keeps the saved one. */
export function saveMailServer(orgId: number, input: MailServerInput) {
  const { password, ...rest } = input;
  return api.put<MailServer>(`/api/orgs-smtp/${orgId}/`, password ? input : rest);
}

export function sendTestMail(orgId: number) {
  return api.post<{ detail: string }>(`/api/orgs-smtp/${orgId}/test/`);
}
