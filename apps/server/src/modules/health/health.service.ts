/**
 * Owns the readiness verdict: the process is ready when its database and storage both answer,
 * and it is not stopping (a process draining before it stops sends traffic elsewhere).
 */
import type { ReadinessResponse } from "@tarmac/contracts";
import type { SqlExecutor } from "../../platform/db/client.ts";
import type { ProcessLifecycle } from "../../platform/lifecycle.ts";
import type { StorageDriver } from "../../platform/storage/storage-driver.ts";

const checkTimeoutMs = 3000;

async function runCheck(check: () => Promise<unknown>): Promise<{ ok: boolean; error?: string }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${checkTimeoutMs} ms`)), checkTimeoutMs);
  });
  try {
    await Promise.race([check(), timeout]);
    return { ok: true };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
  }
}

export class HealthService {
  constructor(
    private readonly deps: { sql: SqlExecutor; storage: StorageDriver; lifecycle: ProcessLifecycle },
  ) {}

  async checkReadiness(): Promise<ReadinessResponse> {
    const [database, storage] = await Promise.all([
      runCheck(() => this.deps.sql.executeSql("select 1 as ok")),
      runCheck(() => this.deps.storage.checkHealth()),
    ]);
    const checks = { database, storage };
    if (this.deps.lifecycle.stopping) return { status: "unavailable", stopping: true, checks };
    return { status: database.ok && storage.ok ? "ok" : "unavailable", checks };
  }
}
