import { randomUUID } from "node:crypto";
import type { FastifyServerOptions } from "fastify";

/** JSON logs with secrets redacted; the request id ties a log line to an error a user reports. */
export function loggerOptions(level: string): FastifyServerOptions["logger"] {
  return {
    level,
    redact: {
      paths: [
        "req.headers.authorization",
        "req.headers.cookie",
        'req.headers["x-xsrf-token"]',
        'res.headers["set-cookie"]',
      ],
      censor: "[redacted]",
    },
  };
}

const incomingIdPattern = /^[A-Za-z0-9._-]{8,64}$/;

export const requestIdOptions = {
  // Fastify would trust any incoming id as-is; genReqId validates it instead.
  requestIdHeader: false,
  requestIdLogLabel: "request_id",
  genReqId: (request: { headers: Record<string, string | string[] | undefined> }) => {
    const incoming = request.headers["x-request-id"];
    return typeof incoming === "string" && incomingIdPattern.test(incoming) ? incoming : randomUUID();
  },
} satisfies Partial<FastifyServerOptions>;
