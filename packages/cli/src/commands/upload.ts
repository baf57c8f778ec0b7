import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import type { ApplicationRecord, BuildWarning, Version } from "@tarmac/contracts";
import { type Api, createApi } from "../api.ts";
import { findApp } from "../apps-lookup.ts";
import { parseCommand, serverFlags, serverOptions } from "../args.ts";
import { resolveSettings } from "../config.ts";
import { CliError, exitCodes, usageError } from "../exit-codes.ts";
import { readGit } from "../git-info.ts";
import { type Io, printJson } from "../io.ts";
import { progressOn } from "../progress.ts";

export const help = `usage: tarmac upload FILE [--app KEY] [--notes TEXT | --notes-file F] [--git auto|off]
                     [--ready] [--apk] [--wait] [--json] [--url URL] [--api-key KEY]
  --app KEY       the app's key (or TARMAC_APP_KEY)
  --notes TEXT    release notes; --notes-file reads them from a file
  --git auto|off  send branch, commit, tag and remote of the checkout (default auto); without
                  notes, the last commit message becomes the notes
  --ready         offer the build on the app's install link at once
  --apk           for an .aab: the server also builds a universal APK of it (the version
                  processes meanwhile)
  --wait          return once the server has finished processing the build
  --json          print one JSON object on stdout`;

type CiUploadAnswer = ApplicationRecord & { public_link: string; warnings: BuildWarning[] };

const waitStepMs = 2000;
const waitLimitMs = 15 * 60_000;

async function readNotes(notes: string | undefined, notesFile: string | undefined, io: Io) {
  if (notes !== undefined && notesFile !== undefined)
    throw usageError("give --notes or --notes-file, not both");
  if (notesFile === undefined) return notes;
  try {
    return await readFile(path.resolve(io.cwd, notesFile), "utf8");
  } catch (error) {
    throw new CliError(exitCodes.noInput, `cannot read ${notesFile}: ${(error as Error).message}`);
  }
}

async function checkFile(file: string) {
  try {
    if ((await stat(file)).isFile()) return;
  } catch {
    // reported below
  }
  throw new CliError(exitCodes.noInput, `cannot read ${file}: no such file`);
}

/** CI uploads are committed when answered; an app bundle being converted still processes. */
async function waitUntilProcessed(api: Api, appId: number, version: Version): Promise<Version> {
  const deadline = Date.now() + waitLimitMs;
  let current = version;
  while (current.state === "processing") {
    if (Date.now() > deadline) throw new CliError(exitCodes.unavailable, "the build is still processing");
    await new Promise((resolve) => setTimeout(resolve, waitStepMs));
    current = await api.get<Version>(`/api/applications/${appId}/build/${current.id}/`);
  }
  if (current.state === "failed") throw new CliError(9, "the server could not process the build");
  return current;
}

export async function run(argv: string[], io: Io): Promise<number> {
  const args = parseCommand(
    argv,
    {
      ...serverOptions,
      app: { type: "string" },
      notes: { type: "string" },
      "notes-file": { type: "string" },
      git: { type: "string", default: "auto" },
      ready: { type: "boolean" },
      apk: { type: "boolean" },
      wait: { type: "boolean" },
    },
    ["FILE"],
  );
  const gitMode = args.text("git");
  if (gitMode !== "auto" && gitMode !== "off")
    throw usageError(`--git must be auto or off, not "${gitMode}"`);
  const appKey = args.text("app") || io.env.TARMAC_APP_KEY;
  if (!appKey) throw usageError("no app: give --app KEY or set TARMAC_APP_KEY");
  const file = path.resolve(io.cwd, args.positionals[0] as string);
  await checkFile(file);
  let notes = await readNotes(args.text("notes"), args.text("notes-file"), io);
  const settings = await resolveSettings(serverFlags(args), io.env);
  const api = createApi(settings);

  const app = await findApp(api, appKey);
  const { tusUpload } = await import("../tus-upload.ts");
  const uploadId = await tusUpload(settings, file, app.organization, progressOn(process.stderr, io.env));

  const form = new FormData();
  form.append("upload_id", uploadId);
  if (gitMode === "auto") {
    const { message, ...fields } = await readGit(path.dirname(file), io.env);
    notes ??= message;
    for (const [name, value] of Object.entries(fields)) if (value) form.append(name, value);
  }
  if (notes) form.append("whats_new", notes);
  form.append("ready_to_sale", args.flag("ready") ? "true" : "false");
  form.append("build_type", "tarmac-cli");
  if (args.flag("apk")) form.append("convert_to_apk", "true");
  const answer = await api.send<CiUploadAnswer>(
    "PUT",
    `/api/app_upload/${encodeURIComponent(app.app_key)}/${encodeURIComponent(settings.apiKey)}/`,
    form,
    "the app key or API key was not accepted for uploads to this app",
  );
  let version = answer.current_version as Version;
  if (args.flag("wait")) version = await waitUntilProcessed(api, answer.id, version);
  report(io, args.flag("json"), answer, version);
  return exitCodes.ok;
}

function report(io: Io, json: boolean, answer: CiUploadAnswer, version: Version) {
  if (json) {
    printJson(io, {
      ok: true,
      app: { id: answer.id, key: answer.app_key, title: answer.title },
      version: {
        id: version.id,
        version: version.version,
        build: version.build_version_number,
        state: version.state,
        ready: version.ready_to_sale,
      },
      install_url: answer.public_link,
      warnings: answer.warnings,
    });
    return;
  }
  io.out(`Uploaded ${answer.title} ${version.version} (${version.build_version_number}), ${version.state}\n`);
  io.out(`Install page: ${answer.public_link}\n`);
  for (const warning of answer.warnings) io.err(`warning: ${warning.message}\n`);
}
