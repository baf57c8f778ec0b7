import type { FastifyInstance } from "fastify";
import type { ProcessLifecycle } from "../platform/lifecycle.ts";

/**
 * While the process drains, each response says `Connection: close`: a proxy then opens new
 * connections (to processes that stay) instead of reusing one this process is about to close,
 * where a request sent at the wrong moment would be lost.
 */
export function closeConnectionsWhileStopping(app: FastifyInstance, lifecycle: ProcessLifecycle): void {
  app.addHook("onSend", async (_request, reply) => {
    if (lifecycle.stopping) reply.header("connection", "close");
  });
}
