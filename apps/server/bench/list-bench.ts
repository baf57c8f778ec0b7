import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort, type ServerProcess, startServer, waitForHealth } from "../test/helpers/server-process.ts";
import { percentile } from "./bench-server.ts";

const serverDir = fileURLToPath(new URL("..", import.meta.url));

interface Seeded {
  token: string;
  organizationId: number;
  testerAppId: number;
  projectId: number;
  seedSeconds: number;
  appIds: number[];
  appTexts: string[];
  staffTexts: string[];
  testerTexts: string[];
}

export interface LoadFigures {
  requests: number;
  failures: number;
  p50: number;
  p95: number;
  rps: number;
}

/**
 * One GET over a kept-alive connection; the status once the whole body arrived. node:http costs
 * the load generator a fraction of what fetch() does, so 32 clients on this machine measure the
 * server rather than the client's own event loop.
 */
function get(agent: http.Agent, url: string, token: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent, headers: { authorization: `Token ${token}` } }, (response) => {
      response.on("data", () => undefined);
      response.on("end", () => resolve(response.statusCode ?? 0));
      response.on("error", reject);
    });
    request.on("error", reject);
  });
}

/** `clients` loops, each sending its next request when the previous answered, for `seconds`. */
async function load(
  urls: () => string,
  token: string,
  clients: number,
  seconds: number,
): Promise<LoadFigures> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
  const latencies: number[] = [];
  let failures = 0;
  const deadline = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < deadline) {
        const started = performance.now();
        if ((await get(agent, urls(), token)) !== 200) failures += 1;
        latencies.push(performance.now() - started);
      }
    }),
  );
  agent.destroy();
  return {
    requests: latencies.length,
    failures,
    p50: percentile(latencies, 0.5),
    p95: percentile(latencies, 0.95),
    rps: latencies.length / seconds,
  };
}

/** The liveness check, measured last in each run: the lists' throughput is quoted against it. */
export const referenceCase = "reference: liveness check";

const pick = <T>(items: T[]): T => items[Math.floor(Math.random() * items.length)] as T;
const randomInt = (low: number, high: number) => low + Math.floor(Math.random() * (high - low + 1));

/**
 * What people type to find something: 3 to 8 characters from inside a real title, address or
 * name, sometimes in other case or without its accents.
 */
export function searchTerm(texts: string[]): string {
  const text = pick(texts);
  const length = Math.min(text.length, randomInt(3, 8));
  const start = randomInt(0, text.length - length);
  let term = text.slice(start, start + length).trim() || text;
  if (Math.random() < 0.3) term = term.normalize("NFD").replace(/\p{M}/gu, "");
  if (Math.random() < 0.3) term = term.toUpperCase();
  return encodeURIComponent(term);
}

/** BENCH_CASES (words separated by commas) runs only the cases whose names hold one of them. */
function selected(name: string): boolean {
  const wanted = (process.env.BENCH_CASES ?? "").split(",").filter(Boolean);
  return name === referenceCase || wanted.length === 0 || wanted.some((word) => name.includes(word));
}

export interface ListBenchOptions {
  apps: number;
  versionsPerApp: number;
  seconds: number;
  clients: number;
}

/**
 * Seeds one large organization, starts the server on it and loads each list with `clients`
 * clients: the first 50 pages and any page of the apps list and of the installable apps, title
 * searches, a random app's builds, testers, staff, project members (every member in one
 * project) and who reaches that project (admins, then members), the people picker and team
 * searches.
 */
export async function runListBench(databaseUrl: string | undefined, options: ListBenchOptions) {
  const dataDir = mkdtempSync(join(tmpdir(), "tarmac-bench-list-"));
  const env: Record<string, string> = { DATA_DIR: dataDir, LOG_LEVEL: "warn" };
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  const seed = spawnSync(process.execPath, ["--import", "tsx", "bench/seed-apps.ts"], {
    cwd: serverDir,
    env: {
      ...process.env,
      ...env,
      INIT_CWD: serverDir,
      APPS: String(options.apps),
      VERSIONS_PER_APP: String(options.versionsPerApp),
    },
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (seed.status !== 0) throw new Error(`seed failed: ${seed.stderr}`);
  const seeded = JSON.parse(seed.stdout.trim().split("\n").pop() ?? "{}") as Seeded;
  // A case named "(fresh process)" runs in a server process started for it, which has presented
  // no app yet; the cases after it run in that process too.
  const start = async () => {
    const started = startServer({ ...env, PORT: String(await freePort()) });
    await waitForHealth(started);
    return started;
  };
  const stop = async (running: ServerProcess) => {
    running.child.kill("SIGTERM");
    await running.exited;
  };
  let server = await start();
  try {
    const api = () => `${server.url}/api`;
    const org = seeded.organizationId;
    const lastPage = Math.ceil(options.apps / 20);
    // Title searches come first, in a process that has presented no app yet: their records are
    // read and presented as the terms arrive ("cached or not"). Then random pages, in another
    // process that has presented none (most of the pages asked are read), and the other lists
    // in turn in that process.
    const anyPage = () => `${api()}/applications/?org=${org}&page=${randomInt(1, lastPage)}`;
    const cases: Record<string, () => string> = {
      "apps list, ?title= search (fresh process)": () =>
        `${api()}/applications/?org=${org}&title=${searchTerm(seeded.appTexts)}`,
      "apps list, any page (fresh process)": anyPage,
      "apps list, one of the first 50 pages": () =>
        `${api()}/applications/?org=${org}&page=${randomInt(1, 50)}`,
      "apps list, any page": anyPage,
      "apps list, ?title= search": () =>
        `${api()}/applications/?org=${org}&title=${searchTerm(seeded.appTexts)}`,
      "installable apps list, any page": () =>
        `${api()}/m/applications/?org=${org}&page=${randomInt(1, lastPage)}`,
      "builds list of a random app": () => `${api()}/applications/${pick(seeded.appIds)}/builds/?page=1`,
      "testers search": () =>
        `${api()}/testers/?app=${seeded.testerAppId}&search=${searchTerm(seeded.testerTexts)}`,
      "staff search": () => `${api()}/orgs-users/?org=${org}&search=${searchTerm(seeded.staffTexts)}`,
      "staff list, any page": () => `${api()}/usersinorgs/?org=${org}&page=${randomInt(1, 100)}`,
      "staff list, ?s= search": () => `${api()}/usersinorgs/?org=${org}&s=${searchTerm(seeded.staffTexts)}`,
      "project members search": () =>
        `${api()}/usersinproject/?project=${seeded.projectId}&search=${searchTerm(seeded.staffTexts)}`,
      "project's combined users, any page": () =>
        `${api()}/applications/${seeded.testerAppId}/project_combined_users/?page=${randomInt(1, 200)}`,
      "people picker search": () =>
        `${api()}/teams-users-search/?org=${org}&s=${searchTerm(seeded.staffTexts)}`,
      "teams search": () =>
        `${api()}/teams/?org=${org}&s=${searchTerm(["Café", "Nova", "Zürich", "team 1"])}`,
      // The least a request costs on this machine in this run (no database), measured last when
      // the process is warm: the reference the lists' throughput is quoted against.
      [referenceCase]: () => `${api()}/health/`,
    };
    const results: Record<string, LoadFigures> = {};
    let presented = false;
    for (const [name, urls] of Object.entries(cases)) {
      if (!selected(name)) continue;
      const fresh = name.endsWith("(fresh process)");
      if (fresh && presented) {
        await stop(server);
        server = await start();
      }
      // A fresh process's warm-up asks only for the liveness check, so no app is presented.
      await load(fresh ? (cases[referenceCase] as () => string) : urls, seeded.token, 4, 1);
      results[name] = await load(urls, seeded.token, options.clients, options.seconds);
      presented = true;
    }
    return { seedSeconds: seeded.seedSeconds, results };
  } finally {
    await stop(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
