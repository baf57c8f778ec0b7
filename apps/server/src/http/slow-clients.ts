import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Config } from "../config.ts";

type TimeoutSettings = Pick<
  Config,
  "HTTP_HEADERS_TIMEOUT_MS" | "BODY_MIN_BYTES_PER_SECOND" | "BODY_RATE_WINDOW_SECONDS"
>;

const checkEveryMs = 1000;

function hasBody(request: FastifyRequest): boolean {
  const length = Number(request.headers["content-length"] ?? 0);
  return length > 0 || Boolean(request.headers["transfer-encoding"]);
}

/**
 * Keeps slow clients from holding sockets (and, for uploads, temporary files) open. Headers must
 * arrive within HTTP_HEADERS_TIMEOUT_MS, silence is cut by the server's idle timeout, and a
 * request body must keep a minimum rate: a fixed total time would cut off honest multi-gigabyte
 * uploads, a rate cuts off only those that trickle. The rate is read from the socket's byte
 * count, which leaves the body stream untouched for its parser.
 */
export function guardAgainstSlowClients(app: FastifyInstance, settings: TimeoutSettings): void {
  app.server.headersTimeout = settings.HTTP_HEADERS_TIMEOUT_MS;
  // No whole-request deadline: the body rate below bounds uploads of any size instead.
  app.server.requestTimeout = 0;
  const minRate = settings.BODY_MIN_BYTES_PER_SECOND;
  if (minRate === 0) return;
  const windowTicks = settings.BODY_RATE_WINDOW_SECONDS * (1000 / checkEveryMs);

  app.addHook("onRequest", async (request, reply) => {
    if (!hasBody(request)) return;
    const { socket } = request.raw;
    const counts = [socket.bytesRead];
    const timer = setInterval(() => {
      counts.push(socket.bytesRead);
      if (counts.length <= windowTicks) return;
      const received = (counts.at(-1) ?? 0) - (counts.shift() ?? 0);
      if (received < minRate * settings.BODY_RATE_WINDOW_SECONDS) {
        clearInterval(timer);
        request.log.info({ received }, "request body too slow; closing the connection");
        socket.destroy();
      }
    }, checkEveryMs);
    timer.unref();
    const stop = () => clearInterval(timer);
    request.raw.once("end", stop);
    request.raw.once("close", stop);
    request.raw.once("error", stop);
    // Answered before the body was read to its end (a refusal): nothing is left to watch.
    reply.raw.once("close", stop);
  });
}
