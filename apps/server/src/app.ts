import fastifyCookie from "@fastify/cookie";
import fastifyHelmet from "@fastify/helmet";
import fastifyMultipart from "@fastify/multipart";
import fastifyRateLimit from "@fastify/rate-limit";
import fastifySwagger from "@fastify/swagger";
import fastifySwaggerUi from "@fastify/swagger-ui";
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from "fastify";
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import { type AuthOptions, registerAuth } from "./http/auth.ts";
import { handleError } from "./http/errors.ts";
import { requestIdOptions } from "./http/logging.ts";
import { contentSecurityPolicy } from "./http/security-headers.ts";
import { registerApplicationRoutes } from "./modules/application/application.routes.ts";
import {
  type ApplicationServices,
  createApplicationServices,
} from "./modules/application/application-services.ts";
import { registerDownloadRoutes } from "./modules/application/download.routes.ts";
import { registerVersionRoutes } from "./modules/application/version.routes.ts";
import { AccountService } from "./modules/auth/account.service.ts";
import { registerAuthRoutes } from "./modules/auth/auth.routes.ts";
import { AuthTokenService } from "./modules/auth/auth-token.service.ts";
import { LoginService } from "./modules/auth/login.service.ts";
import { PasswordService } from "./modules/auth/password.service.ts";
import { scheduleBuildJobs } from "./modules/upload/upload.jobs.ts";
import { registerBuildRoutes } from "./modules/upload/upload.routes.ts";
import { type BuildServices, createBuildServices } from "./modules/upload/upload.module.ts";
import { scheduleDistributionJobs } from "./modules/distribution/distribution.jobs.ts";
import { registerDistributionRoutes } from "./modules/distribution/distribution.routes.ts";
import {
  createDistributionServices,
  type DistributionServices,
} from "./modules/distribution/distribution-services.ts";
import { registerGetappRoutes } from "./modules/distribution/getapp.routes.ts";
import { registerUdidRoutes } from "./modules/distribution/udid.routes.ts";
import { registerFileRoutes } from "./modules/files/files.routes.ts";
import { createGdprJobs, scheduleGdprCleanup } from "./modules/gdpr/gdpr.jobs.ts";
import { registerGdprRoutes } from "./modules/gdpr/gdpr.routes.ts";
import { GdprService } from "./modules/gdpr/gdpr.service.ts";
import { GdprExportWorker } from "./modules/gdpr/gdpr-export.service.ts";
import { registerHealthRoutes } from "./modules/health/health.routes.ts";
import { HealthService } from "./modules/health/health.service.ts";
import { registerOrganizationAreaRoutes } from "./modules/organization/organization-routes.ts";
import {
  createOrganizationServices,
  type OrganizationServices,
} from "./modules/organization/organization-services.ts";
import { registerMailTestRoute } from "./modules/outbox/mail-test.routes.ts";
import { registerOutboxRoutes } from "./modules/outbox/outbox.routes.ts";
import { OutboxService } from "./modules/outbox/outbox.service.ts";
import { registerProfileRoutes } from "./modules/profile/profile.routes.ts";
import { ProfileService } from "./modules/profile/profile.service.ts";
import { registerProjectMemberRoutes } from "./modules/project-member/project-member.routes.ts";
import { ProjectMemberService } from "./modules/project-member/project-member.service.ts";
import { registerTesterRoutes } from "./modules/tester/tester.routes.ts";
import { registerTesterSendRoutes } from "./modules/tester/tester-send.routes.ts";
import { createTesterServices, type TesterServices } from "./modules/tester/tester-services.ts";
import { registerTwoFactorRoutes } from "./modules/two-factor/two-factor.routes.ts";
import { TwoFactorService } from "./modules/two-factor/two-factor.service.ts";
import { defaultWebDistDir, registerWebHost } from "./modules/web-host/web-host.routes.ts";
import { createMailJobs } from "./platform/mail/mail.jobs.ts";
import type { Platform } from "./platform/platform.ts";

export interface AppServices {
  tokens: AuthTokenService;
  mailJobs: ReturnType<typeof createMailJobs>;
  // --- accounts ---
  accounts: AccountService;
  login: LoginService;
  passwords: PasswordService;
  twoFactor: TwoFactorService;
  profiles: ProfileService;
  gdpr: GdprService;
  gdprJobs: ReturnType<typeof createGdprJobs>;
  // --- end accounts ---
  // --- organizations ---
  orgs: OrganizationServices;
  // --- end organizations ---
  // --- applications ---
  apps: ApplicationServices;
  // --- end applications ---
  // --- builds ---
  builds: BuildServices;
  // --- end builds ---
  // --- testers ---
  testers: TesterServices;
  projectMembers: ProjectMemberService;
  // --- end testers ---
  // --- distribution ---
  distribution: DistributionServices;
  // --- end distribution ---
}

/** Services and their jobs; a worker-only process needs these without HTTP. */
export function createServices(platform: Platform): AppServices {
  const tokens = new AuthTokenService(platform.database.db);
  const mailJobs = createMailJobs(platform.mailer);
  platform.jobs.register(Object.values(mailJobs));

  // --- accounts ---
  const accountDeps = {
    db: platform.database.db,
    jobs: platform.jobs,
    mailJobs,
    tokens,
    publicUrl: platform.config.PUBLIC_URL,
  };
  const accounts = new AccountService(accountDeps);
  const twoFactor = new TwoFactorService(platform.database.db, platform.config.SECRET_KEY);
  const gdprJobs = createGdprJobs(
    new GdprExportWorker({ db: platform.database.db, storage: platform.storage }),
  );
  platform.jobs.register(Object.values(gdprJobs));
  const gdpr = new GdprService({
    db: platform.database.db,
    jobs: platform.jobs,
    gdprJobs,
    storage: platform.storage,
  });
  const accountServices = {
    accounts,
    twoFactor,
    login: new LoginService(accountDeps, twoFactor),
    passwords: new PasswordService(accountDeps),
    profiles: new ProfileService(platform.database.db, platform.config.PUBLIC_URL, gdpr),
    gdpr,
    gdprJobs,
  };
  // --- end accounts ---

  // --- organizations ---
  const orgs = createOrganizationServices(platform, { mailJobs, accounts, twoFactor });
  // --- end organizations ---

  // --- applications ---
  const apps = createApplicationServices(platform, { membership: orgs.membership });
  // --- end applications ---

  // --- builds ---
  const builds = createBuildServices(platform, { apps, membership: orgs.membership, tokens });
  // --- end builds ---

  // --- distribution ---
  const distribution = createDistributionServices(platform, { apps });
  // --- end distribution ---
  // --- testers ---
  const testers = createTesterServices(platform, {
    applications: apps.applications,
    membership: orgs.membership,
    appLinks: distribution.distributions,
  });
  const projectMembers = new ProjectMemberService({
    db: platform.database.db,
    membership: orgs.membership,
    apps: apps.applications,
    invitations: orgs.staffActions,
  });
  // --- end testers ---

  return { tokens, mailJobs, ...accountServices, orgs, apps, builds, testers, projectMembers, distribution };
}

/** The ONE place where modules are wired to HTTP. */
export async function buildApp(
  platform: Platform,
  services: AppServices,
  logger: FastifyBaseLogger,
): Promise<FastifyInstance> {
  const { config, database, storage, signer } = platform;
  const app = Fastify({
    loggerInstance: logger,
    ...requestIdOptions,
    trustProxy: config.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
    forceCloseConnections: "idle",
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(handleError);
  app.addHook("onSend", async (request, reply) => {
    reply.header("x-request-id", request.id);
  });

  await app.register(fastifyCookie);
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      directives: contentSecurityPolicy(
        Boolean(config.GTM_CONTAINER_ID),
        config.PUBLIC_URL.startsWith("https://"),
      ),
    },
    crossOriginEmbedderPolicy: false,
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

  const authOptions: AuthOptions = {
    tokens: services.tokens,
    cookieDomain: config.COOKIE_DOMAIN,
    secureCookies: config.PUBLIC_URL.startsWith("https://"),
    adminEmails: config.ADMIN_EMAILS,
  };
  registerAuth(app, authOptions);

  // --- accounts ---
  registerAuthRoutes(app, {
    accounts: services.accounts,
    login: services.login,
    passwords: services.passwords,
    auth: authOptions,
  });
  registerTwoFactorRoutes(app, { twoFactor: services.twoFactor });
  registerProfileRoutes(app, { profiles: services.profiles });
  registerGdprRoutes(app, { gdpr: services.gdpr });
  // The queue is started before the app is built; pg-boss stores the schedule for every worker.
  await scheduleGdprCleanup(platform.jobs, services.gdprJobs);
  // --- end accounts ---
  // --- organizations ---
  registerOrganizationAreaRoutes(app, services.orgs, config.PUBLIC_URL);
  // --- end organizations ---
  // --- applications ---
  registerApplicationRoutes(app, {
    apps: services.apps,
    publicUrl: config.PUBLIC_URL,
    distributions: (userId, appId, only) =>
      services.distribution.distributions.listForApp(userId, appId, only),
  });
  registerVersionRoutes(app, { apps: services.apps });
  registerDownloadRoutes(app, { versions: services.apps.versionService, storage, signer });
  // --- end applications ---
  // --- builds ---
  registerBuildRoutes(app, services.builds, config.UPLOAD_MAX_BYTES);
  await scheduleBuildJobs(platform.jobs, services.builds.jobs);
  // --- end builds ---
  // --- testers ---
  registerTesterRoutes(app, { testers: services.testers.testers, publicUrl: config.PUBLIC_URL });
  registerTesterSendRoutes(app, { sends: services.testers.sends, picker: services.testers.picker });
  registerProjectMemberRoutes(app, { members: services.projectMembers, publicUrl: config.PUBLIC_URL });
  // --- end testers ---
  // --- distribution ---
  registerDistributionRoutes(app, services.distribution);
  registerGetappRoutes(app, { getapp: services.distribution.getapp, storage });
  registerUdidRoutes(app, { udid: services.distribution.udid });
  await scheduleDistributionJobs(platform.jobs, services.distribution.jobs);
  // --- end distribution ---

  registerHealthRoutes(app, { health: new HealthService(database.sql, storage) });
  registerOutboxRoutes(app, { outbox: new OutboxService(database.db), publicUrl: config.PUBLIC_URL });
  registerMailTestRoute(app, {
    jobs: platform.jobs,
    mailJobs: services.mailJobs,
    mode: platform.mailer.mode,
  });
  registerFileRoutes(app, { storage, signer });
  await registerWebHost(app, {
    distDir: config.WEB_DIST_DIR ?? defaultWebDistDir,
    client: {
      gtm_container_id: config.GTM_CONTAINER_ID ?? null,
      cookie_domain: config.COOKIE_DOMAIN,
      public_url: config.PUBLIC_URL,
    },
  });
  return app;
}
