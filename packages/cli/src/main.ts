import { CliError, exitCodes } from "./exit-codes.ts";
import { type Io, processIo } from "./io.ts";

declare const __TARMAC_CLI_VERSION__: string | undefined;
const version = typeof __TARMAC_CLI_VERSION__ === "string" ? __TARMAC_CLI_VERSION__ : "0.0.0-source";

const usage = `usage: tarmac COMMAND [options]

  login                  check a server URL and API key and save them
  upload FILE            upload a build (resumable) as a new version of an app
  apps                   list the apps the API key sees
  versions APP           list an app's versions (APP: its key or id)
  testers send APP       e-mail the app's install link to testers
  inspect FILE           print what a build file holds (offline)

Settings: --url and --api-key, else TARMAC_URL and TARMAC_API_KEY, else the file saved by
\`tarmac login\` ($XDG_CONFIG_HOME/tarmac/config.json or ~/.config/tarmac/config.json).
\`tarmac COMMAND --help\` shows a command's options. Exit codes: see the README.`;

interface Command {
  run(argv: string[], io: Io): Promise<number>;
  help: string;
}

// Each command is loaded when run, so `tarmac --version` evaluates none of them.
const commands: Record<string, () => Promise<Command>> = {
  login: () => import("./commands/login.ts"),
  upload: () => import("./commands/upload.ts"),
  apps: () => import("./commands/apps.ts"),
  versions: () => import("./commands/versions.ts"),
  testers: () => import("./commands/testers.ts"),
  inspect: () => import("./commands/inspect.ts"),
};

export async function main(argv: string[], io: Io = processIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === "--version" || name === "-v") {
    io.out(`${version}\n`);
    return exitCodes.ok;
  }
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    io.out(`${usage}\n`);
    return name === undefined ? exitCodes.usage : exitCodes.ok;
  }
  const load = commands[name];
  if (!load) return fail(io, argv, new CliError(exitCodes.usage, `unknown command "${name}"\n${usage}`));
  const command = await load();
  if (rest.includes("--help") || rest.includes("-h")) {
    io.out(`${command.help}\n`);
    return exitCodes.ok;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof CliError) return fail(io, argv, error);
    return fail(
      io,
      argv,
      new CliError(exitCodes.server, `unexpected failure: ${(error as Error).stack ?? error}`),
    );
  }
}

/** One line on stderr; with --json, the same as one object on stdout for scripts. */
function fail(io: Io, argv: string[], error: CliError): number {
  io.err(`tarmac: ${error.message}\n`);
  if (argv.includes("--json"))
    io.out(
      `${JSON.stringify({ ok: false, exit_code: error.exitCode, error: error.message.split("\n")[0] })}\n`,
    );
  return error.exitCode;
}

process.exitCode = await main(process.argv.slice(2));
