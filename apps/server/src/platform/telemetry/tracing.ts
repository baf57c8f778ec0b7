/**
 * What the rest of the server asks of tracing. It imports nothing: when no OTLP endpoint is
 * configured nothing of OpenTelemetry is loaded, `activeTracing()` is null and each caller takes
 * its plain path. `start.ts` loads the SDK (`sdk.ts`) and installs it here before the server's
 * other modules are imported.
 */
export interface Tracing {
  /** `trace_id`, `span_id` and `trace_flags` of the active span, for log lines; none outside a span. */
  logFields(): Record<string, string> | undefined;
  /** The W3C `traceparent` of the active span, which a job carries to the process that runs it. */
  traceparent(): string | undefined;
  /**
   * Runs one attempt of a job in a span of its own, a child of the span that queued it (its
   * `traceparent`) or a new trace. `attempt` resolves to the error it failed with, if it failed.
   */
  runJob(
    job: { queue: string; id: string; retryCount: number; traceparent?: string },
    attempt: () => Promise<unknown>,
  ): Promise<unknown>;
  /**
   * Runs a statement of the embedded database in a span, inside a traced request or job only
   * (PostgreSQL's statements are traced by the driver's instrumentation).
   */
  runStatement<T>(text: string, run: () => Promise<T>): Promise<T>;
  /** Names the server span of the request being handled after its route pattern (`http.route`). */
  nameRoute(route: string): void;
  /** Where the SDK's warnings and errors (an export that failed) go once the process has a logger. */
  logTo(logger: { warn(object: object, message: string): void }): void;
  /** Sends the spans still waiting, within `timeoutMs`, and stops tracing. */
  shutdown(timeoutMs: number): Promise<void>;
}

let active: Tracing | null = null;

/** The tracing this process runs, or null when none is configured. */
export function activeTracing(): Tracing | null {
  return active;
}

/** Set once at start-up (`start.ts`), before the modules that ask for it are loaded; tests set it too. */
export function installTracing(tracing: Tracing | null): void {
  active = tracing;
}
