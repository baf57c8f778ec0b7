import type { Version } from "@tarmac/contracts";
import { allPages, createApi } from "../api.ts";
import { findApp } from "../apps-lookup.ts";
import { parseCommand, serverFlags, serverOptions } from "../args.ts";
import { resolveSettings } from "../config.ts";
import { exitCodes } from "../exit-codes.ts";
import { type Io, printJson, table } from "../io.ts";

export const help = "usage: tarmac versions APP [--json]   (APP: the app's key or id)";

export async function run(argv: string[], io: Io): Promise<number> {
  const args = parseCommand(argv, serverOptions, ["APP"]);
  const api = createApi(await resolveSettings(serverFlags(args), io.env));
  const app = await findApp(api, args.positionals[0] as string);
  const builds = (await allPages<Version>(api, `/api/applications/${app.id}/builds/`)).map((build) => ({
    id: build.id,
    version: build.version,
    build: build.build_version_number,
    state: build.state,
    ready: build.ready_to_sale,
    date: build.date,
    git_commit: build.git_commit,
  }));
  if (args.flag("json"))
    printJson(io, { app: { id: app.id, key: app.app_key, title: app.title }, versions: builds });
  else if (builds.length === 0) io.out("No versions.\n");
  else
    io.out(
      `${table([["ID", "VERSION", "BUILD", "STATE", "READY", "DATE"], ...builds.map((b) => [String(b.id), b.version, b.build, b.state, b.ready ? "yes" : "no", b.date])])}\n`,
    );
  return exitCodes.ok;
}
