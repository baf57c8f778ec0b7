import { createInterface } from "node:readline/promises";
import { createApi } from "../api.ts";
import { parseCommand, serverOptions } from "../args.ts";
import { normalizeUrl, saveConfig } from "../config.ts";
import { exitCodes, usageError } from "../exit-codes.ts";
import { type Io, printJson } from "../io.ts";

async function ask(question: string): Promise<string> {
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return (await prompt.question(question)).trim();
  } finally {
    prompt.close();
  }
}

/** Checks the URL and key with one call before saving them, so a typo fails here. */
export const help = "usage: tarmac login [--url URL] [--api-key KEY] [--json]";

export async function run(argv: string[], io: Io): Promise<number> {
  const args = parseCommand(argv, serverOptions, []);
  const interactive = process.stdin.isTTY === true;
  let url = args.text("url") || io.env.TARMAC_URL;
  let apiKey = args.text("api-key") || io.env.TARMAC_API_KEY;
  if (!url && interactive) url = await ask("Tarmac URL (e.g. https://tarmac.example.com): ");
  if (!apiKey && interactive) apiKey = await ask("API key (on your profile page): ");
  if (!url || !apiKey) throw usageError("give --url and --api-key (or TARMAC_URL and TARMAC_API_KEY)");
  const settings = { url: normalizeUrl(url), apiKey };
  const [profile] = await createApi(settings).get<{ email: string }[]>("/api/profiles/");
  const file = await saveConfig(settings, io.env);
  if (args.flag("json")) printJson(io, { ok: true, url: settings.url, email: profile?.email, config: file });
  else io.out(`Logged in to ${settings.url} as ${profile?.email}; saved in ${file}\n`);
  return exitCodes.ok;
}
