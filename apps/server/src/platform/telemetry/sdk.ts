import type { IncomingMessage, RequestOptions } from "node:http";
import { setTimeout as delay } from "node:timers/promises";
import { context, type DiagLogger, DiagLogLevel, diag, ROOT_CONTEXT } from "@opentelemetry/api";
import { registerInstrumentations } from "@opentelemetry/instrumentation";
import { HttpInstrumentation } from "@opentelemetry/instrumentation-http";
import { PgInstrumentation } from "@opentelemetry/instrumentation-pg";
import { detectResources, envDetector, resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, NodeTracerProvider, type SpanExporter } from "@opentelemetry/sdk-trace-node";
import { workContext } from "../work-context.ts";
import { operationOf, spansOf } from "./spans.ts";
import type { OtlpProtocol } from "./start.ts";
import type { Tracing } from "./tracing.ts";

/** Probes ask these every few seconds; a trace of each would drown the rest. */
const probePaths = new Set(["/api/health/", "/api/health/ready/"]);

/** The exporter of the chosen encoding; each reads its endpoint, headers, timeout from OTEL_EXPORTER_OTLP_*. */
async function exporterFor(protocol: OtlpProtocol): Promise<SpanExporter> {
  if (protocol === "http/json") {
    const { OTLPTraceExporter } = await import("@opentelemetry/exporter-trace-otlp-http");
    return new OTLPTraceExporter();
  }
  const { OTLPTraceExporter } = await import("@opentelemetry/exporter-trace-otlp-proto");
  return new OTLPTraceExporter();
}

/** A diagnostic's text: the SDK passes errors as their JSON (`{"message": …, "stack": …}`). */
function diagnosticText(message: string, args: unknown[]): string {
  let text = message;
  if (message.startsWith("{")) {
    try {
      const parsed = JSON.parse(message) as { message?: unknown };
      if (typeof parsed.message === "string") text = parsed.message;
    } catch {
      // not JSON after all: kept as it is
    }
  }
  const detail = args.map((arg) => (arg instanceof Error ? arg.message : String(arg))).join(" ");
  return detail ? `${text} ${detail}` : text;
}

/**
 * The SDK's own warnings and errors (an export that failed): to stderr until the process has its
 * logger, then to it. They belong to no request or job, whichever one's context the exporter's
 * timer was started in.
 */
function diagnostics() {
  let logger: { warn(object: object, message: string): void } | null = null;
  const write =
    (level: string) =>
    (message: string, ...args: unknown[]) => {
      const text = `tracing: ${diagnosticText(message, args)}`;
      if (!logger) {
        process.stderr.write(`${text}\n`);
        return;
      }
      const sink = logger;
      context.with(ROOT_CONTEXT, () => workContext.exit(() => sink.warn({ otel: level }, text)));
    };
  const forward: DiagLogger = {
    error: write("error"),
    warn: write("warn"),
    info: () => undefined,
    debug: () => undefined,
    verbose: () => undefined,
  };
  diag.setLogger(forward, DiagLogLevel.WARN);
  return (next: typeof logger) => {
    logger = next;
  };
}

/** The path and query of a request as a trace keeps them (secrets taken out, as in the logs). */
function redactedTarget(request: IncomingMessage, redactUrl: (url: string) => string) {
  const url = redactUrl(request.url ?? "/");
  const query = url.indexOf("?");
  return query < 0
    ? { "url.path": url }
    : { "url.path": url.slice(0, query), "url.query": url.slice(query + 1) };
}

/**
 * An outgoing request by its origin only: webhook and chat URLs, signed storage URLs carry
 * secrets in their paths and queries.
 */
function outgoingOrigin(options: RequestOptions) {
  const protocol = options.protocol ?? "http:";
  const host = options.hostname ?? options.host ?? "localhost";
  return { "url.full": `${protocol}//${host}${options.port ? `:${options.port}` : ""}` };
}

/**
 * OpenTelemetry's trace SDK with an OTLP/HTTP exporter. The exporter, the sampler
 * (OTEL_TRACES_SAMPLER), the batch processor (OTEL_BSP_*) and the resource (OTEL_SERVICE_NAME,
 * default "tarmac"; OTEL_RESOURCE_ATTRIBUTES) read the standard variables themselves.
 *
 * The server's bundle leaves npm packages in node_modules, so the instrumentations patch the real
 * `http` and `pg` modules, as long as this runs before those are loaded (main.ts sees to it).
 * Fastify is not patched: the HTTP instrumentation makes the server span, and a hook of the
 * server (`nameRoute`) names it after the route. The embedded database is traced by Tarmac
 * itself (`runStatement`), PostgreSQL by the pg instrumentation.
 */
export async function startSdk(options: {
  protocol: OtlpProtocol;
  redactUrl(url: string): string;
}): Promise<Tracing> {
  const logTo = diagnostics();
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ "service.name": "tarmac" }).merge(
      detectResources({ detectors: [envDetector] }),
    ),
    spanProcessors: [new BatchSpanProcessor(await exporterFor(options.protocol))],
  });
  provider.register();
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request) => probePaths.has((request.url ?? "").split("?")[0] ?? ""),
        startIncomingSpanHook: (request) => redactedTarget(request, options.redactUrl),
        startOutgoingSpanHook: outgoingOrigin,
        // Outgoing requests outside a request or a job (nothing to attach them to) are not traced.
        requireParentforOutgoingSpans: true,
      }),
      new PgInstrumentation({
        requireParentSpan: true,
        // Statements are named (prepared) per connection: the span is named by its operation instead.
        requestHook: (span, { query }) => span.updateName(operationOf(query.text)),
      }),
    ],
  });
  return {
    ...spansOf(provider.getTracer("tarmac")),
    logTo,
    async shutdown(timeoutMs) {
      await Promise.race([provider.shutdown(), delay(timeoutMs, undefined, { ref: false })]);
    },
  };
}
