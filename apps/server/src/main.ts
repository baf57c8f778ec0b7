/**
 * The server's entry point. Tracing starts first, when an OTLP endpoint is configured: the
 * instrumentations patch `http` and `pg` as they are loaded, so nothing that loads them may come
 * before. The bundle puts every static import of an npm package at its top, so this file imports
 * only modules that import nothing, and the server itself (serve.ts) once tracing runs.
 */
import { redactUrl } from "./http/redact-url.ts";
import { startTracing, TracingConfigError } from "./platform/telemetry/start.ts";

try {
  await startTracing(process.env, { redactUrl });
} catch (error) {
  const reason = error instanceof Error ? error.message : String(error);
  process.stderr.write(
    error instanceof TracingConfigError ? `${reason}\n` : `Tarmac failed to start: tracing: ${reason}\n`,
  );
  process.exit(1);
}

const { serve } = await import("./serve.ts");
serve();
