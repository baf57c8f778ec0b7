import { writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { InspectError } from "./errors.ts";
import { inspect } from "./inspect.ts";
import { fileSource } from "./source.ts";
import type { AppType, BuildInfo } from "./types.ts";

export const usage = `usage: tarmac-inspect FILE [--app-type N] [--icon OUT.png]

Prints what the inspector reads from a build file as JSON (snake_case keys).
  --app-type N    the current app's type, which decides how a .zip is read:
                  0 Android, 1 iOS, 2 Windows (default for .zip), 3 macOS
  --icon OUT.png  also write the build's icon as a PNG file
Exit status: 0 read, 1 the file is not a readable build, 2 usage error.`;

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

const processIo: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

class UsageError extends Error {}

interface CliArgs {
  file: string;
  appType?: AppType;
  iconPath?: string;
}

function parseCliArgs(argv: string[]): CliArgs | "help" {
  let parsed: ReturnType<
    typeof parseArgs<{
      options: {
        "app-type": { type: "string" };
        icon: { type: "string" };
        help: { type: "boolean"; short: "h" };
      };
      allowPositionals: true;
    }>
  >;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        "app-type": { type: "string" },
        icon: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      allowPositionals: true,
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (parsed.values.help) return "help";
  if (parsed.positionals.length !== 1) throw new UsageError("expected exactly one FILE");
  const rawType = parsed.values["app-type"];
  let appType: AppType | undefined;
  if (rawType !== undefined) {
    if (!/^[0-3]$/.test(rawType)) throw new UsageError(`--app-type must be 0, 1, 2 or 3, not "${rawType}"`);
    appType = Number(rawType) as AppType;
  }
  return { file: parsed.positionals[0] as string, appType, iconPath: parsed.values.icon };
}

/** The JSON view: the icon as a summary, and no Buffer anywhere printed as bytes. */
export function toPrintable(info: BuildInfo): unknown {
  const { icon } = info;
  const view = {
    ...info,
    icon: icon
      ? { present: true, width: icon.width, height: icon.height, bytes: icon.png.length }
      : { present: false },
  };
  return JSON.parse(
    JSON.stringify(view, function replaceBuffers(this: Record<string, unknown>, key: string, value: unknown) {
      const raw = key === "" ? value : this[key];
      return Buffer.isBuffer(raw) ? { bytes: raw.length } : value;
    }),
  );
}

/** Runs the CLI and returns its exit status. */
export async function runCli(argv: string[], io: CliIo = processIo): Promise<number> {
  let args: CliArgs | "help";
  try {
    args = parseCliArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(`error: ${error.message}\n${usage}\n`);
    return 2;
  }
  if (args === "help") {
    io.stdout(`${usage}\n`);
    return 0;
  }
  let source: Awaited<ReturnType<typeof fileSource>>;
  try {
    source = await fileSource(args.file);
  } catch (error) {
    io.stderr(`error: cannot open ${args.file}: ${(error as Error).message}\n`);
    return 2;
  }
  try {
    const info = await inspect(source, { fileName: args.file, appTypeHint: args.appType });
    io.stdout(`${JSON.stringify(toPrintable(info), null, 2)}\n`);
    if (args.iconPath) {
      if (info.icon) await writeFile(args.iconPath, info.icon.png);
      else io.stderr(`note: the build has no icon; ${args.iconPath} was not written\n`);
    }
    return 0;
  } catch (error) {
    if (!(error instanceof InspectError)) throw error;
    io.stderr(`error: ${error.reason}: ${error.message}\n`);
    return 1;
  } finally {
    await source.close?.();
  }
}
