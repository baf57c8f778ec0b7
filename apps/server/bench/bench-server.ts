import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  freePort,
  issueAdminToken,
  type ServerProcess,
  startServer,
  waitForHealth,
} from "../test/helpers/server-process.ts";

export interface BenchServer {
  server: ServerProcess;
  url: string;
  dataDir: string;
  token: string;
  organizationId: number;
  stop(): Promise<void>;
}

/** Resident memory of a process in bytes, read from /proc (Linux). */
export function residentBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const match = /VmRSS:\s+(\d+) kB/.exec(status);
  return match ? Number(match[1]) * 1024 : 0;
}

/**
 * The real entry point as `npm start` runs it, on a fresh data directory, with an unlimited plan,
 * one user holding an API key and one organization.
 */
export async function startBenchServer(env: Record<string, string> = {}): Promise<BenchServer> {
  const dataDir = mkdtempSync(join(tmpdir(), "tarmac-bench-"));
  const port = await freePort();
  const baseEnv = { DATA_DIR: dataDir, DEFAULT_PLAN: "unlimited", LOG_LEVEL: "warn", ...env };
  const token = issueAdminToken(baseEnv, "bench@example.com");
  const server = startServer({ ...baseEnv, PORT: String(port) });
  await waitForHealth(server);
  const url = server.url;
  const response = await fetch(`${url}/api/organizations/`, {
    method: "POST",
    headers: { authorization: `Token ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ title: "Bench", subdomain: `bench-${port}` }),
  });
  if (response.status !== 201) throw new Error(`organization: ${response.status} ${await response.text()}`);
  const organization = (await response.json()) as { id: number };
  return {
    server,
    url,
    dataDir,
    token,
    organizationId: organization.id,
    async stop() {
      server.child.kill("SIGTERM");
      await server.exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? 0;
}
