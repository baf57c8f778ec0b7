import type { FastifyInstance } from "fastify";
import type { Metrics } from "../platform/metrics/metrics.ts";

declare module "fastify" {
  interface FastifyContextConfig {
    /** The route receives builds: it counts among the uploads in flight and their bytes. */
    buildUpload?: boolean;
  }
}

/**
 * Every answer counted and timed by its route pattern (`/api/apps/:id/`, never the path itself,
 * so ids do not multiply the series); requests no route matched share the route "unmatched".
 */
export function registerRequestMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.addHook("onRequest", async (request, reply) => {
    if (!request.routeOptions.config.buildUpload) return;
    // Bytes are read off the socket as they arrive, so a long upload shows its progress.
    const socket = request.raw.socket;
    const finish = metrics.startUpload(() => socket.bytesRead);
    reply.raw.once("close", finish);
  });
  app.addHook("onResponse", async (request, reply) => {
    const labels = {
      method: request.method,
      route: request.routeOptions.url ?? "unmatched",
      status: String(reply.statusCode),
    };
    metrics.httpRequests.inc(labels);
    metrics.httpDuration.observe(labels, reply.elapsedTime / 1000);
  });
}
