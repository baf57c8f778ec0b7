import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A reverse proxy in front of several web processes, behaving as the usual ones do (nginx with
 * `proxy_next_upstream error` and upstream keep-alive, Caddy or Kubernetes with health checks):
 * - it sends requests round-robin to the upstreams whose readiness answered 200 last time it
 *   asked (every `checkEveryMs`);
 * - it keeps connections to upstreams alive and reuses them;
 * - when a connection cannot be opened, the request goes to the next upstream (it was never
 *   sent); once a request was sent, a failure is the client's failure (502), never retried.
 */
export interface BalancingProxy {
  url: string;
  /** Requests answered 502 because an upstream failed them. */
  failures: string[];
  close(): Promise<void>;
}

export async function startBalancingProxy(upstreams: string[], checkEveryMs = 200): Promise<BalancingProxy> {
  const ready = new Map(upstreams.map((upstream) => [upstream, false]));
  const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
  const failures: string[] = [];
  let next = 0;

  const check = async () => {
    await Promise.all(
      upstreams.map(async (upstream) => {
        try {
          const response = await fetch(`${upstream}/api/health/ready/`, {
            signal: AbortSignal.timeout(1000),
          });
          await response.arrayBuffer();
          ready.set(upstream, response.ok);
        } catch {
          ready.set(upstream, false);
        }
      }),
    );
  };
  await check();
  const timer = setInterval(() => void check(), checkEveryMs);

  /** The ready upstreams from the round-robin position on, then the others as a last resort. */
  const order = (): string[] => {
    const start = next++;
    const rotated = upstreams.map((_, index) => upstreams[(start + index) % upstreams.length] as string);
    return [...rotated.filter((u) => ready.get(u)), ...rotated.filter((u) => !ready.get(u))];
  };

  const forward = (upstream: string, request: http.IncomingMessage, body: Buffer) =>
    new Promise<http.IncomingMessage>((resolve, reject) => {
      const target = new URL(request.url ?? "/", upstream);
      const outgoing = http.request(
        target,
        { method: request.method, headers: request.headers, agent },
        resolve,
      );
      outgoing.on("error", reject);
      outgoing.end(body);
    });

  const server = http.createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    let lastError: unknown = null;
    for (const upstream of order()) {
      try {
        const answer = await forward(upstream, request, body);
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
        return;
      } catch (error) {
        lastError = error;
        // Refused: nothing was sent, so the next upstream may have it.
        if ((error as NodeJS.ErrnoException).code === "ECONNREFUSED") continue;
        break;
      }
    }
    failures.push(`${request.method} ${request.url}: ${String(lastError)}`);
    response.writeHead(502).end();
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    failures,
    close: async () => {
      clearInterval(timer);
      agent.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
