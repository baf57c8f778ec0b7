import { type ParseArgsConfig, parseArgs } from "node:util";
import { usageError } from "./exit-codes.ts";

type ParseArgsOptionsConfig = NonNullable<ParseArgsConfig["options"]>;

/** Options every command that talks to the server takes (they win over environment and file). */
export const serverOptions = {
  url: { type: "string" },
  "api-key": { type: "string" },
  json: { type: "boolean" },
} as const satisfies ParseArgsOptionsConfig;

export interface Parsed {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
  text(name: string): string | undefined;
  flag(name: string): boolean;
}

/** Strict parsing: an unknown option or a wrong number of arguments is a usage error (64). */
export function parseCommand(
  argv: string[],
  options: ParseArgsOptionsConfig,
  positionalNames: string[],
): Parsed {
  let parsed: { values: Record<string, string | boolean | undefined>; positionals: string[] };
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true }) as typeof parsed;
  } catch (error) {
    throw usageError((error as Error).message);
  }
  if (parsed.positionals.length !== positionalNames.length)
    throw usageError(
      positionalNames.length === 0
        ? `unexpected argument "${parsed.positionals[0]}"`
        : `expected ${positionalNames.join(" ")}, got ${parsed.positionals.length} argument(s)`,
    );
  const { values } = parsed;
  return {
    values,
    positionals: parsed.positionals,
    text: (name) => (typeof values[name] === "string" ? (values[name] as string) : undefined),
    flag: (name) => values[name] === true,
  };
}

export const serverFlags = (args: Parsed) => ({ url: args.text("url"), apiKey: args.text("api-key") });
