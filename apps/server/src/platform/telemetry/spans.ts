import {
  type Context,
  context,
  defaultTextMapGetter,
  defaultTextMapSetter,
  isSpanContextValid,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from "@opentelemetry/api";
import { getRPCMetadata, RPCType, W3CTraceContextPropagator } from "@opentelemetry/core";
import type { Tracing } from "./tracing.ts";

/** Jobs carry W3C trace context whatever propagators the process uses for HTTP. */
const w3c = new W3CTraceContextPropagator();

/** The first word of a statement, as PostgreSQL's instrumentation names its spans (`SELECT`). */
export function operationOf(text: string): string {
  const word = /^\s*(?:--[^\n]*\n\s*)*([A-Za-z]+)/.exec(text)?.[1];
  return word ? word.toUpperCase() : "QUERY";
}

function failed(span: { recordException(e: Error): void; setStatus(s: object): void }, error: unknown) {
  const exception = error instanceof Error ? error : new Error(String(error));
  span.recordException(exception);
  span.setStatus({ code: SpanStatusCode.ERROR, message: exception.message });
}

/** The spans Tarmac makes itself: job runs, the embedded database's statements, route names. */
export function spansOf(
  tracer: Tracer,
): Pick<Tracing, "logFields" | "traceparent" | "runJob" | "runStatement" | "nameRoute"> {
  return {
    logFields() {
      const span = trace.getSpan(context.active());
      if (!span) return undefined;
      const { traceId, spanId, traceFlags } = span.spanContext();
      if (!isSpanContextValid(span.spanContext())) return undefined;
      return { trace_id: traceId, span_id: spanId, trace_flags: traceFlags.toString(16).padStart(2, "0") };
    },

    traceparent() {
      const carrier: Record<string, string> = {};
      w3c.inject(context.active(), carrier, defaultTextMapSetter);
      return carrier.traceparent;
    },

    async runJob(job, attempt) {
      const parent: Context = job.traceparent
        ? w3c.extract(ROOT_CONTEXT, { traceparent: job.traceparent }, defaultTextMapGetter)
        : ROOT_CONTEXT;
      const span = tracer.startSpan(
        `process ${job.queue}`,
        {
          kind: SpanKind.CONSUMER,
          attributes: {
            "messaging.system": "pg-boss",
            "messaging.operation.type": "process",
            "messaging.operation.name": "process",
            "messaging.destination.name": job.queue,
            "messaging.message.id": job.id,
            "tarmac.job.retry_count": job.retryCount,
          },
        },
        parent,
      );
      try {
        const error = await context.with(trace.setSpan(parent, span), attempt);
        if (error !== undefined) failed(span, error);
        return error;
      } catch (error) {
        failed(span, error);
        throw error;
      } finally {
        span.end();
      }
    },

    async runStatement(text, run) {
      const active = context.active();
      // Outside a request or a job (pg-boss polling its queues) statements make no traces of their own.
      if (!trace.getSpan(active)) return run();
      const operation = operationOf(text);
      const span = tracer.startSpan(
        operation,
        {
          kind: SpanKind.CLIENT,
          attributes: {
            "db.system.name": "postgresql",
            "db.operation.name": operation,
            "db.query.text": text,
            "tarmac.db.embedded": true,
          },
        },
        active,
      );
      try {
        return await context.with(trace.setSpan(active, span), run);
      } catch (error) {
        failed(span, error);
        throw error;
      } finally {
        span.end();
      }
    },

    nameRoute(route) {
      // The HTTP instrumentation names the server span `METHOD route` and sets http.route from this.
      const metadata = getRPCMetadata(context.active());
      if (metadata?.type === RPCType.HTTP) metadata.route = route;
    },
  };
}
