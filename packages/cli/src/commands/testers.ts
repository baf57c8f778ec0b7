import type { AppMail, TesterRecipients } from "@tarmac/contracts";
import { type Api, createApi } from "../api.ts";
import { findApp } from "../apps-lookup.ts";
import { parseCommand, serverFlags, serverOptions } from "../args.ts";
import { resolveSettings } from "../config.ts";
import { exitCodes, usageError } from "../exit-codes.ts";
import { type Io, printJson } from "../io.ts";

export const help = "usage: tarmac testers send APP --emails a@x,b@y [--notes TEXT] [--json]";

/**
 * The send call takes ids: an address is a tester of the app, a saved address of the app, or
 * becomes a saved address (the Distribution tab shows it afterwards).
 */
async function recipientIds(api: Api, appId: number, emails: string[]) {
  const known = await api.get<TesterRecipients>(`/api/app-teams/${appId}/`);
  const testers = [...known.testers, ...known.groups.flatMap((group) => group.testers)];
  const testerIds = new Set<number>();
  const mailIds = new Set<number>();
  for (const email of emails) {
    const lower = email.toLowerCase();
    const tester = testers.find((candidate) => candidate.email.toLowerCase() === lower);
    if (tester) {
      testerIds.add(tester.id);
      continue;
    }
    const saved =
      known.app_mails.find((mail) => mail.email.toLowerCase() === lower) ??
      (await api.send<AppMail>("POST", "/api/app-mails/", { app: appId, email }));
    mailIds.add(saved.id);
  }
  return { testers_id: [...testerIds], emails_id: [...mailIds] };
}

export async function run(argv: string[], io: Io): Promise<number> {
  if (argv[0] !== "send") throw usageError(help);
  const args = parseCommand(
    argv.slice(1),
    { ...serverOptions, emails: { type: "string" }, notes: { type: "string" } },
    ["APP"],
  );
  const emails = (args.text("emails") ?? "")
    .split(",")
    .map((email) => email.trim())
    .filter(Boolean);
  if (emails.length === 0) throw usageError("give --emails a@example.com,b@example.com");
  const api = createApi(await resolveSettings(serverFlags(args), io.env));
  const app = await findApp(api, args.positionals[0] as string);
  const ids = await recipientIds(api, app.id, emails);
  const sent = await api.send<{ batch_id: string; recipients: number }>("POST", `/api/app-teams/${app.id}/`, {
    app2os: [app.id],
    ...ids,
    whats_new: args.text("notes") ?? "",
  });
  if (args.flag("json")) printJson(io, { ok: true, ...sent });
  else io.out(`Sending ${app.title} to ${sent.recipients} recipient(s).\n`);
  return exitCodes.ok;
}
