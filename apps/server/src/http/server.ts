import fastifyCookie from "@fastify/cookie";
import fastifyMultipart from "@fastify/multipart";
import fastifyRateLimit from "@fastify/rate-limit";
import fastifySwagger from "@fastify/swagger";
import fastifySwaggerUi from "@fastify/swagger-ui";
import { useDrfMessages } from "@tarmac/contracts";
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from "fastify";
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import type { Config } from "../config.ts";
import { activeTracing } from "../platform/telemetry/tracing.ts";
import { workContext } from "../platform/work-context.ts";
import { handleError } from "./errors.ts";
import { requestIdOptions } from "./logging.ts";
import { registerNulGuard } from "./nul-guard.ts";
import { registerSecurityHeaders } from "./security-headers.ts";
import { guardAgainstSlowClients } from "./slow-clients.ts";

/** Fastify with what every route relies on: zod schemas, errors, cookies, CSP, multipart and OpenAPI. */
export async function createHttpServer(config: Config, logger: FastifyBaseLogger): Promise<FastifyInstance> {
  // Field errors read as they always have to API clients: DRF's words, not the validator's.
  useDrfMessages();
  const app = Fastify({
    loggerInstance: logger,
    ...requestIdOptions,
    trustProxy: config.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
    forceCloseConnections: "idle",
    connectionTimeout: config.HTTP_IDLE_TIMEOUT_MS,
  });
  // Everything a request runs knows its id (a job it queues carries it). The store is entered
  // again before the handler: body parsing resumes in the socket's context, not the request's.
  const enterRequest = (request: FastifyRequest, _reply: FastifyReply, done: () => void) =>
    workContext.run({ requestId: request.id }, done);
  app.addHook("onRequest", enterRequest);
  app.addHook("preHandler", enterRequest);
  // With tracing, the request's server span is named after its route pattern (`POST /api/apps/:id/`).
  const tracing = activeTracing();
  if (tracing) {
    app.addHook("onRequest", (request, _reply, done) => {
      const route = request.routeOptions.url;
      if (route) tracing.nameRoute(route);
      done();
    });
  }
  guardAgainstSlowClients(app, config);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(handleError);
  app.addHook("onSend", async (request, reply) => {
    reply.header("x-request-id", request.id);
  });

  await app.register(fastifyCookie);
  // After the cookie plugin: a refused request still gets its cookies read and answered.
  registerNulGuard(app);
  registerSecurityHeaders(app, {
    tagManager: Boolean(config.GTM_CONTAINER_ID),
    https: config.PUBLIC_URL.startsWith("https://"),
    stripe: Boolean(config.STRIPE_PUBLISHABLE_KEY),
  });
  await app.register(fastifyRateLimit, { global: false });
  await app.register(fastifyMultipart, { limits: { files: 1, fields: 50, fieldSize: 1024 * 1024 } });
  await app.register(fastifySwagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Tarmac API",
        version: "1.0.0",
        description: "Distribute Android, iOS, Windows and macOS builds.",
      },
      components: {
        securitySchemes: {
          token: { type: "apiKey", in: "header", name: "Authorization", description: "Token <key>" },
        },
      },
      security: [{ token: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: "/api/docs", staticCSP: true });
  app.get("/api/openapi.json", { schema: { hide: true } }, async () => app.swagger());
  return app;
}
