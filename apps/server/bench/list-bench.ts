import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort, startServer, waitForHealth } from "../test/helpers/server-process.ts";
import { percentile } from "./bench-server.ts";

const serverDir = fileURLToPath(new URL("..", import.meta.url));

interface Seeded {
  token: string;
  organizationId: number;
  appIds: number[];
}

/** `clients` loops, each sending its next request when the previous answered, for `seconds`. */
async function load(urls: () => string, token: string, clients: number, seconds: number) {
  const latencies: number[] = [];
  let failures = 0;
  const deadline = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < deadline) {
        const started = performance.now();
        const response = await fetch(urls(), { headers: { authorization: `Token ${token}` } });
        await response.arrayBuffer();
        if (response.status !== 200) failures += 1;
        latencies.push(performance.now() - started);
      }
    }),
  );
  return {
    requests: latencies.length,
    failures,
    p50: percentile(latencies, 0.5),
    p95: percentile(latencies, 0.95),
    rps: latencies.length / seconds,
  };
}

/** Seeds 10,000 apps / 100,000 versions, starts the server on them and loads both lists. */
export async function runListBench(databaseUrl: string | undefined, seconds: number) {
  const dataDir = mkdtempSync(join(tmpdir(), "tarmac-bench-list-"));
  const env: Record<string, string> = { DATA_DIR: dataDir, LOG_LEVEL: "warn" };
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  const seed = spawnSync(process.execPath, ["--import", "tsx", "bench/seed-apps.ts"], {
    cwd: serverDir,
    env: { ...process.env, ...env, INIT_CWD: serverDir },
    encoding: "utf8",
  });
  if (seed.status !== 0) throw new Error(`seed failed: ${seed.stderr}`);
  const seeded = JSON.parse(seed.stdout.trim().split("\n").pop() ?? "{}") as Seeded;
  const port = await freePort();
  const server = startServer({ ...env, PORT: String(port) });
  try {
    await waitForHealth(server);
    const base = `${server.url}/api/applications/`;
    const pick = <T>(items: T[]) => items[Math.floor(Math.random() * items.length)] as T;
    const appsList = () => `${base}?org=${seeded.organizationId}&page=${1 + Math.floor(Math.random() * 50)}`;
    const buildsList = () => `${base}${pick(seeded.appIds)}/builds/?page=1`;
    await load(appsList, seeded.token, 4, 2); // warm-up
    const apps = await load(appsList, seeded.token, 32, seconds);
    const builds = await load(buildsList, seeded.token, 32, seconds);
    return { apps, builds };
  } finally {
    server.child.kill("SIGTERM");
    await server.exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}
