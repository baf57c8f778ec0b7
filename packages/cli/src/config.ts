import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { CliError, exitCodes } from "./exit-codes.ts";

export interface Settings {
  url: string;
  apiKey: string;
}

interface SavedConfig {
  url?: string;
  api_key?: string;
}

export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME || path.join(os.homedir(), ".config");
  return path.join(base, "tarmac", "config.json");
}

async function readSaved(env: NodeJS.ProcessEnv): Promise<SavedConfig> {
  try {
    return JSON.parse(await readFile(configPath(env), "utf8")) as SavedConfig;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw new CliError(exitCodes.usage, `cannot read ${configPath(env)}: ${(error as Error).message}`);
  }
}

/** The API key is a secret: the file is the user's alone, also when it existed before. */
export async function saveConfig(settings: Settings, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const file = configPath(env);
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const saved: SavedConfig = { url: settings.url, api_key: settings.apiKey };
  await writeFile(file, `${JSON.stringify(saved, null, 2)}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  return file;
}

export const normalizeUrl = (url: string) => url.trim().replace(/\/+$/, "");

/** Flags, then TARMAC_URL / TARMAC_API_KEY, then the saved file. */
export async function resolveSettings(
  flags: { url?: string; apiKey?: string },
  env: NodeJS.ProcessEnv = process.env,
): Promise<Settings> {
  const saved = flags.url && flags.apiKey ? {} : await readSaved(env);
  const url = flags.url || env.TARMAC_URL || saved.url;
  const apiKey = flags.apiKey || env.TARMAC_API_KEY || saved.api_key;
  if (!url || !apiKey) {
    const missing = [
      url ? null : "server URL (--url, TARMAC_URL)",
      apiKey ? null : "API key (--api-key, TARMAC_API_KEY)",
    ];
    throw new CliError(
      exitCodes.usage,
      `no ${missing.filter(Boolean).join(" and no ")}: run \`tarmac login\` or set them`,
    );
  }
  return { url: normalizeUrl(url), apiKey };
}
