import { createApi } from "../api.ts";
import { listApps } from "../apps-lookup.ts";
import { parseCommand, serverFlags, serverOptions } from "../args.ts";
import { resolveSettings } from "../config.ts";
import { exitCodes } from "../exit-codes.ts";
import { type Io, platformNames, printJson, table } from "../io.ts";

export const help = "usage: tarmac apps [--json]";

export async function run(argv: string[], io: Io): Promise<number> {
  const args = parseCommand(argv, serverOptions, []);
  const api = createApi(await resolveSettings(serverFlags(args), io.env));
  const found = (await listApps(api)).map((app) => ({
    id: app.id,
    key: app.app_key,
    title: app.title,
    platform: platformNames[app.app_type] ?? String(app.app_type),
    version: app.new_version,
    organization: app.organization,
  }));
  if (args.flag("json")) printJson(io, { apps: found });
  else if (found.length === 0) io.out("No apps.\n");
  else
    io.out(
      `${table([["KEY", "ID", "PLATFORM", "VERSION", "TITLE"], ...found.map((a) => [a.key, String(a.id), a.platform, a.version || "-", a.title])])}\n`,
    );
  return exitCodes.ok;
}
