import { installTracing } from "./tracing.ts";

/** A tracing variable with a value Tarmac cannot use; the entry point prints it as one line. */
export class TracingConfigError extends Error {
  override readonly name = "TracingConfigError";
}

type Env = Record<string, string | undefined>;

/** A variable's value; empty means unset, as for Tarmac's own variables. */
function setting(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

/**
 * Whether traces are wanted: an OTLP endpoint is set (`OTEL_EXPORTER_OTLP_ENDPOINT`, or the
 * traces' own `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`), and neither `OTEL_SDK_DISABLED=true` nor
 * `OTEL_TRACES_EXPORTER=none` turns them off.
 */
export function tracingWanted(env: Env): boolean {
  if (setting(env, "OTEL_SDK_DISABLED")?.toLowerCase() === "true") return false;
  if (setting(env, "OTEL_TRACES_EXPORTER")?.toLowerCase() === "none") return false;
  return Boolean(
    setting(env, "OTEL_EXPORTER_OTLP_ENDPOINT") ?? setting(env, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"),
  );
}

export type OtlpProtocol = "http/protobuf" | "http/json";

/** The OTLP encoding spans are sent in: http/protobuf (the standard default) or http/json. */
export function otlpProtocol(env: Env): OtlpProtocol {
  const variable = setting(env, "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL")
    ? "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"
    : "OTEL_EXPORTER_OTLP_PROTOCOL";
  const protocol = setting(env, variable) ?? "http/protobuf";
  if (protocol === "http/protobuf" || protocol === "http/json") return protocol;
  throw new TracingConfigError(
    `Invalid configuration: ${variable}: ${protocol} is not supported; use http/protobuf or http/json`,
  );
}

export interface TracingOptions {
  /** A request's URL as a trace may keep it (secrets in paths and queries taken out). */
  redactUrl(url: string): string;
}

/**
 * Starts tracing when it is wanted, and otherwise loads nothing: the SDK, its exporter and the
 * instrumentations are imported only here, on demand. Must run before anything the
 * instrumentations patch (http, pg) is loaded. Returns whether tracing runs.
 */
export async function startTracing(env: Env, options: TracingOptions): Promise<boolean> {
  if (!tracingWanted(env)) return false;
  const protocol = otlpProtocol(env);
  const { startSdk } = await import("./sdk.ts");
  installTracing(await startSdk({ protocol, redactUrl: options.redactUrl }));
  return true;
}
