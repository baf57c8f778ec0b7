import { createServer } from "node:http";
import type { ReadinessResponse } from "@tarmac/contracts";

const starting: ReadinessResponse = {
  status: "unavailable",
  checks: {
    database: { ok: false, error: "starting: the database is being opened and migrated" },
    storage: { ok: false, error: "starting: not checked yet" },
  },
};

/**
 * Answers on the web port while the process starts (the database opening, migrations that may
 * take minutes): liveness says the process is alive, so an orchestrator does not kill it midway,
 * and readiness and every other path say 503, so no traffic comes yet. Closed just before the
 * application itself listens on the port.
 */
export async function listenWhileStarting(port: number, host: string): Promise<{ close(): Promise<void> }> {
  const server = createServer((request, response) => {
    const path = (request.url ?? "").split("?")[0];
    const json = (status: number, body: unknown) =>
      response
        .writeHead(status, { "content-type": "application/json; charset=utf-8", "retry-after": "5" })
        .end(JSON.stringify(body));
    if (path === "/api/health/") json(200, { status: "ok" });
    else if (path === "/api/health/ready/") json(503, starting);
    else json(503, { detail: "Tarmac is starting. Try again in a few seconds." });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  return {
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
