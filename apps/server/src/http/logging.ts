import { randomUUID } from "node:crypto";
import { type FastifyServerOptions, LogController } from "fastify";
import { stdSerializers } from "pino";
import { activeTracing } from "../platform/telemetry/tracing.ts";
import { jobLogFields } from "../platform/work-context.ts";
import { redactUrl } from "./redact-url.ts";

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

function logFieldsMixin(): () => Record<string, string> {
  const tracing = activeTracing();
  if (!tracing) return jobLogFields;
  return () => {
    const job = jobLogFields();
    const trace = tracing.logFields();
    return trace ? { ...job, ...trace } : job;
  };
}

/** JSON logs with secrets redacted; the request id ties a log line to an error a user reports. */
export function loggerOptions(level: string): FastifyServerOptions["logger"] {
  return {
    level,
    // A job's lines name the job and the request that queued it; with tracing, every line
    // written while a span is active names its trace and span, so logs and traces join.
    mixin: logFieldsMixin(),
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
