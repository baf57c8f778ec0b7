import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  freePort,
  issueAdminToken,
  readJson,
  type ServerProcess,
  startServer,
  waitForHealth,
} from "../../../apps/server/test/helpers/server-process.ts";

export const cliBin = fileURLToPath(new URL("../bin/tarmac.mjs", import.meta.url));
export const repoRoot = fileURLToPath(new URL("../../..", import.meta.url));
const fixtures = fileURLToPath(new URL("../../inspector/fixtures/", import.meta.url));

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a node script with a clean environment: no settings but those given, config in `home`. */
export function runNode(
  script: string,
  args: string[],
  env: Record<string, string>,
  cwd: string,
): Promise<Run> {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith("TARMAC_") && !name.startsWith("INPUT_")),
  );
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [script, ...args],
      { cwd, env: { ...inherited, CI: "true", ...env }, timeout: 25_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr }),
    );
  });
}

/** One server for the whole file, an organization, an admin's API key and a first app. */
export interface Stage {
  work: string;
  server: ServerProcess;
  apiKey: string;
  app: { id: number; app_key: string; organization: number };
  /** A copy of the disk image fixture named for `version` (its version is read from the name). */
  build(version: string, dir?: string): string;
  cli(args: string[], env?: Record<string, string>): Promise<Run>;
  close(): Promise<void>;
}

async function api(
  server: ServerProcess,
  token: string,
  method: string,
  url: string,
  body?: FormData | object,
) {
  const form = body instanceof FormData;
  const response = await fetch(`${server.url}${url}`, {
    method,
    headers: {
      authorization: `Token ${token}`,
      ...(form || !body ? {} : { "content-type": "application/json" }),
    },
    body: form ? body : body ? JSON.stringify(body) : undefined,
  });
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
  return readJson(response);
}

export async function startStage(serverEnv: Record<string, string> = {}): Promise<Stage> {
  const work = mkdtempSync(path.join(os.tmpdir(), "tarmac-cli-"));
  const env = {
    DATA_DIR: path.join(work, "data"),
    ADMIN_EMAILS: "root@tarmac.test",
    DATABASE_URL: "",
    ...serverEnv,
  };
  const apiKey = issueAdminToken(env, "root@tarmac.test");
  const server = startServer({ ...env, PORT: String(await freePort()) });
  const build = (version: string, dir = work) => {
    const file = path.join(dir, `Tarmac-${version}.dmg`);
    writeFileSync(file, readFileSync(path.join(fixtures, "apple/dmg/Tarmac-1.2.3.dmg")));
    return file;
  };
  try {
    await waitForHealth(server, 60_000);
    const organization = await api(server, apiKey, "POST", "/api/organizations/", {
      title: "CLI Test",
      subdomain: "cli-test",
    });
    const form = new FormData();
    form.append("organization", String(organization.id));
    form.append("file", new Blob([readFileSync(build("1.0.0"))]), "Tarmac-1.0.0.dmg");
    const preload = await api(server, apiKey, "POST", "/api/applicationadd/?preload=1", form);
    const app = await api(server, apiKey, "POST", "/api/applications/", {
      organization: organization.id,
      preload_path: preload.preload_path,
      project_title: "Rocket",
      title: "Rocket",
    });
    return {
      work,
      server,
      apiKey,
      app,
      build,
      cli: (args, extra = {}) =>
        runNode(
          cliBin,
          args,
          {
            TARMAC_URL: server.url,
            TARMAC_API_KEY: apiKey,
            XDG_CONFIG_HOME: path.join(work, "config"),
            ...extra,
          },
          work,
        ),
      close: async () => {
        server.child.kill("SIGTERM");
        await server.exited;
        rmSync(work, { recursive: true, force: true });
      },
    };
  } catch (error) {
    server.child.kill("SIGKILL");
    await server.exited;
    rmSync(work, { recursive: true, force: true });
    throw error;
  }
}
