import path from "node:path";
import { parseCommand } from "../args.ts";
import { CliError, exitCodes } from "../exit-codes.ts";
import { type Io, printJson } from "../io.ts";

/** Reads the build locally: no server, no configuration. */
export const help =
  "usage: tarmac inspect FILE\nPrints the build's metadata as JSON; exit 1 when it is not a readable build.";

export async function run(argv: string[], io: Io): Promise<number> {
  const args = parseCommand(argv, { json: { type: "boolean" } }, ["FILE"]);
  const file = path.resolve(io.cwd, args.positionals[0] as string);
  const [{ InspectError, fileSource, inspect }, { toPrintable }] = await Promise.all([
    import("@tarmac/inspector"),
    import("@tarmac/inspector/cli"),
  ]);
  let source: Awaited<ReturnType<typeof fileSource>>;
  try {
    source = await fileSource(file);
  } catch (error) {
    throw new CliError(exitCodes.noInput, `cannot read ${args.positionals[0]}: ${(error as Error).message}`);
  }
  try {
    printJson(io, toPrintable(await inspect(source, { fileName: file })));
    return exitCodes.ok;
  } catch (error) {
    if (error instanceof InspectError) throw new CliError(1, `${error.reason}: ${error.message}`);
    throw error;
  } finally {
    await source.close?.();
  }
}
