import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openPostgres, pgliteExtensions } from "../../src/platform/db/client.ts";
import { freePort, type ServerProcess, startServer, waitForHealth } from "../helpers/server-process.ts";
import { tempDir } from "../helpers/temp-dirs.ts";

/** A span as OTLP/JSON carries it, with its attributes (and its resource's) as plain values. */
interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  scope: string;
  attributes: Record<string, unknown>;
  resource: Record<string, unknown>;
}

const spanKind = { server: 2, client: 3, consumer: 5 };

type OtlpAttribute = { key: string; value: Record<string, unknown> };

function plainAttributes(attributes: OtlpAttribute[] = []): Record<string, unknown> {
  return Object.fromEntries(
    attributes.map(({ key, value }) => {
      const [kind, raw] = Object.entries(value)[0] ?? [];
      return [key, kind === "intValue" ? Number(raw) : raw];
    }),
  );
}

/** An OTLP/HTTP collector on loopback: keeps every span posted to /v1/traces (JSON encoding). */
async function startCollector() {
  const spans: ReceivedSpan[] = [];
  const read = async (request: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString();
  };
  const server: Server = createServer(async (request, response) => {
    const body = await read(request);
    if (request.method === "POST" && request.url === "/v1/traces") {
      const payload = JSON.parse(body) as {
        resourceSpans: {
          resource?: { attributes?: OtlpAttribute[] };
          scopeSpans: {
            scope?: { name?: string };
            spans: (ReceivedSpan & { attributes: OtlpAttribute[] })[];
          }[];
        }[];
      };
      for (const resourceSpans of payload.resourceSpans) {
        const resource = plainAttributes(resourceSpans.resource?.attributes);
        for (const scopeSpans of resourceSpans.scopeSpans) {
          for (const span of scopeSpans.spans) {
            spans.push({
              ...span,
              ...(span.parentSpanId ? {} : { parentSpanId: undefined }),
              scope: scopeSpans.scope?.name ?? "",
              attributes: plainAttributes(span.attributes),
              resource,
            });
          }
        }
      }
    }
    response.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/**
 * A data directory whose embedded database is the suite's migrated one, so the server starts
 * without creating and migrating a database of its own (seconds on a busy machine).
 */
async function migratedDataDir(prefix: string): Promise<string> {
  const dir = tempDir(prefix);
  const client = await PGlite.create({
    dataDir: path.join(dir, "db"),
    loadDataDir: new Blob([readFileSync(inject("pgliteSnapshot"))]),
    extensions: pgliteExtensions,
  });
  await client.close();
  return dir;
}

/** A server's database: an embedded one, or a copy of the migrated template on PostgreSQL. */
async function databaseEnv(prefix: string): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  const template = inject("postgresTemplate");
  const baseUrl = process.env.TEST_DATABASE_URL;
  if (!template || !baseUrl) {
    return {
      env: { DATA_DIR: await migratedDataDir(prefix), DATABASE_URL: "" },
      drop: async () => undefined,
    };
  }
  const name = `tarmac_${prefix}_${process.pid}_${Date.now()}`;
  const admin = await openPostgres(baseUrl, 1);
  await admin.sql.executeSql(`create database ${name} template ${template}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    env: { DATA_DIR: tempDir(prefix), DATABASE_URL: url.toString() },
    async drop() {
      await admin.sql.executeSql(`drop database if exists ${name} with (force)`);
      await admin.close();
    },
  };
}

async function waitFor<T>(find: () => T | undefined, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`no ${what} in time`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Module loads as NODE_DEBUG=module reports them: the way to see what a process imported. */
const sdkLoaded = /load "[^"]*@opentelemetry\/(sdk-trace-node|instrumentation|exporter-trace-otlp)/;

describe("traces (OTEL_EXPORTER_OTLP_ENDPOINT)", () => {
  let collector: Awaited<ReturnType<typeof startCollector>>;
  const databases: Awaited<ReturnType<typeof databaseEnv>>[] = [];
  let traced: ServerProcess;
  let untraced: ServerProcess;
  let onPostgres = false;

  beforeAll(async () => {
    collector = await startCollector();
    const [tracedDatabase, untracedDatabase] = await Promise.all([
      databaseEnv("traced"),
      databaseEnv("untraced"),
    ]);
    databases.push(tracedDatabase, untracedDatabase);
    onPostgres = Boolean(tracedDatabase.env.DATABASE_URL);
    traced = startServer({
      ...tracedDatabase.env,
      PORT: String(await freePort()),
      LOG_LEVEL: "info",
      NODE_DEBUG: "module",
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_BSP_SCHEDULE_DELAY: "100",
      OTEL_SERVICE_NAME: "",
    });
    untraced = startServer({
      ...untracedDatabase.env,
      PORT: String(await freePort()),
      NODE_DEBUG: "module",
      OTEL_EXPORTER_OTLP_ENDPOINT: "",
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "",
    });
    await Promise.all([waitForHealth(traced), waitForHealth(untraced)]);
  });

  afterAll(async () => {
    for (const server of [traced, untraced]) server?.child.kill("SIGTERM");
    await Promise.all([traced?.exited, untraced?.exited]);
    await collector?.close();
    for (const database of databases) await database.drop();
  });

  it("sends a request's server span (route, status), its statements and the job it queued, in one trace", async () => {
    // Signing up queues the activation mail in the transaction that creates the account.
    const registered = await fetch(`${traced.url}/api/user/register/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        email: "traced@example.test",
        password: "correct-Horse-battery-9",
        first_name: "Tracy",
        last_name: "Traced",
      }),
    });
    expect(registered.status).toBe(201);
    const requestId = registered.headers.get("x-request-id");

    const server = await waitFor(
      () => collector.spans.find((span) => span.attributes["http.route"] === "/api/user/register/"),
      "server span",
    );
    expect(server).toMatchObject({
      kind: spanKind.server,
      name: "POST /api/user/register/",
      scope: "@opentelemetry/instrumentation-http",
      attributes: { "http.request.method": "POST", "http.response.status_code": 201 },
      resource: { "service.name": "tarmac" },
    });
    const inTrace = () => collector.spans.filter((span) => span.traceId === server.traceId);
    const job = await waitFor(
      () => inTrace().find((span) => span.name === "process mail.send"),
      "job span in the request's trace",
    );
    expect(job).toMatchObject({
      kind: spanKind.consumer,
      attributes: { "messaging.destination.name": "mail.send", "messaging.system": "pg-boss" },
    });
    // The job hangs under the request: its parents lead up to the server span.
    const byId = new Map(inTrace().map((span) => [span.spanId, span]));
    const ancestors: string[] = [];
    for (let at = byId.get(job.parentSpanId ?? ""); at; at = byId.get(at.parentSpanId ?? "")) {
      ancestors.push(at.spanId);
    }
    expect(ancestors).toContain(server.spanId);

    // Statements in the request and in the job, by the pg instrumentation on PostgreSQL and by
    // Tarmac's own spans on the embedded database.
    const statements = await waitFor(() => {
      const found = inTrace().filter(
        (span) => span.attributes["db.system.name"] === "postgresql" && "db.query.text" in span.attributes,
      );
      return found.some((span) => span.parentSpanId === job.spanId) ? found : undefined;
    }, "statements in the job");
    const statementScope = onPostgres ? "@opentelemetry/instrumentation-pg" : "tarmac";
    for (const statement of statements) {
      expect(statement).toMatchObject({ kind: spanKind.client, scope: statementScope });
      expect(statement.attributes["db.query.text"]).toEqual(expect.any(String));
    }
    // The request's own statements include queuing the job, in the account's transaction.
    const queuing = statements.filter(
      (span) =>
        span.parentSpanId === server.spanId &&
        /insert into pgboss\.job/i.test(String(span.attributes["db.query.text"])),
    );
    expect(queuing).toHaveLength(1);

    // The request's log lines name its trace and span.
    const lines = traced
      .output()
      .split("\n")
      .filter((line) => line.startsWith('{"level"'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toContainEqual(
      expect.objectContaining({
        msg: "request completed",
        request_id: requestId,
        trace_id: server.traceId,
        span_id: server.spanId,
      }),
    );
    expect(traced.output()).toMatch(sdkLoaded);
  });

  it("keeps secrets of paths and queries out of spans, and makes no span of probes", async () => {
    const secret = "s3cr3tActivationCode";
    await fetch(`${traced.url}/api/user/activate/${secret}/?token=${secret}x`);
    await fetch(`${traced.url}/api/health/`);
    const span = await waitFor(
      () => collector.spans.find((one) => one.attributes["http.route"] === "/api/user/activate/:code/"),
      "activation span",
    );
    expect(span.attributes["url.path"]).toBe("/api/user/activate/[redacted]/");
    expect(span.attributes["url.query"]).toBe("token=[redacted]");
    expect(JSON.stringify(collector.spans)).not.toContain(secret);
    expect(collector.spans.filter((one) => one.attributes["url.path"] === "/api/health/")).toEqual([]);
  });

  it("loads nothing of OpenTelemetry's SDK when no endpoint is set", async () => {
    expect((await fetch(`${untraced.url}/api/health/`)).status).toBe(200);
    expect((await fetch(`${untraced.url}/api/user/activate/nothing/`)).status).toBeGreaterThanOrEqual(400);
    // The loads of the process are listed (the traced one's match the pattern, see above).
    expect(untraced.output()).toMatch(/load "[^"]*\/fastify\//);
    expect(untraced.output()).not.toMatch(sdkLoaded);
  });

  it("stops at once with one line for an OTLP protocol it cannot send", async () => {
    const server = startServer({
      DATA_DIR: tempDir("grpc"),
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: "grpc",
    });
    expect((await server.exited).code).toBe(1);
    expect(server.output().trim()).toBe(
      "Invalid configuration: OTEL_EXPORTER_OTLP_PROTOCOL: grpc is not supported; use http/protobuf or http/json",
    );
  });
});
