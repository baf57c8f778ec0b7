import { randomUUID } from "node:crypto";
import { type FastifyServerOptions, LogController } from "fastify";
import { stdSerializers } from "pino";
import { jobLogFields } from "../platform/work-context.ts";

/** Path segments that are secrets: the API key of a CI upload URL, e-mailed activation codes. */
const secretPathSegments = [/^(\/api\/app_upload\/[^/]+\/)[^/?]+/, /^(\/api\/user\/activate\/)[^/?]+/];
/** Query values that grant access on their own: signed links, access tokens, codes. */
const secretQueryKeys = /([?&](?:signature|access_token|token|code|password)=)[^&#]*/gi;

/** A URL as it may be written to a log. */
export function redactUrl(url: string): string {
  let redacted = url;
  for (const pattern of secretPathSegments) redacted = redacted.replace(pattern, "$1[redacted]");
  return redacted.replace(secretQueryKeys, "$1[redacted]");
}

/**
 * An error as it may be written to a log. Drizzle puts a failed query's parameters in the
 * message and on the error (a new user's password hash, say): keep the SQL, drop the values.
 */
export function serializeError(error: Error): ReturnType<typeof stdSerializers.err> {
  const serialized = stdSerializers.err(error);
  if ("params" in serialized) {
    delete serialized.params;
    if (typeof serialized.message === "string") {
      serialized.message = serialized.message.replace(/\nparams: [\s\S]*$/, "");
    }
    if (typeof serialized.stack === "string") serialized.stack = serialized.stack.replace(/\nparams: .*/, "");
  }
  return serialized;
}

interface LoggedRequest {
  method: string;
  url: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** JSON logs with secrets redacted; the request id ties a log line to an error a user reports. */
export function loggerOptions(level: string): FastifyServerOptions["logger"] {
  return {
    level,
    // A job's lines name the job and the request that queued it.
    mixin: jobLogFields,
    serializers: {
      req: (request: LoggedRequest) => ({
        method: request.method,
        url: redactUrl(request.url),
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
      err: serializeError,
    },
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
  logController: new LogController({ requestIdLogLabel: "request_id" }),
  genReqId: (request: { headers: Record<string, string | string[] | undefined> }) => {
    const incoming = request.headers["x-request-id"];
    return typeof incoming === "string" && incomingIdPattern.test(incoming) ? incoming : randomUUID();
  },
} satisfies Partial<FastifyServerOptions>;
