import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Metrics } from "./metrics.ts";

/**
 * `GET /metrics` on a listener of its own, so the figures never share the public port: by
 * default it listens on the loopback address only, for a Prometheus beside the process.
 */
export async function startMetricsServer(
  metrics: Metrics,
  options: { host: string; port: number },
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    if (request.method !== "GET" || (request.url ?? "").split("?")[0] !== "/metrics") {
      response.writeHead(404, { "content-type": "text/plain" }).end("Only GET /metrics is served here.\n");
      return;
    }
    metrics.registry.metrics().then(
      (text) => response.writeHead(200, { "content-type": metrics.registry.contentType }).end(text),
      (error: unknown) =>
        response
          .writeHead(500, { "content-type": "text/plain" })
          .end(`The metrics could not be read: ${error instanceof Error ? error.message : String(error)}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(":") ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}/metrics`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
