import type { FastifyRequest } from "fastify";
import { requireActiveActor } from "../../http/auth.ts";
import type { ApplicationQueryService } from "./application-query.service.ts";

/**
 * The mobile area (/api/m/applications/) answers the same calls with the same rules, limited to
 * apps the caller may install: any other app is 404 there. Routes of other modules under those
 * prefixes (confirming an upload, an app's install links) use the same guard.
 */
export function installableOnly(
  queries: Pick<ApplicationQueryService, "assertInstallable">,
  installable: boolean,
) {
  if (!installable) return {};
  return {
    preHandler: async (request: FastifyRequest) => {
      const { userId } = requireActiveActor(request);
      const id = (request.params as { id?: number }).id ?? (request.query as { app?: number }).app;
      if (id !== undefined) await queries.assertInstallable(userId, id);
    },
  };
}

/** The apps' URL prefixes: the web app's, and the mobile area's (installable apps only). */
export const appPrefixes = [
  ["/api/applications/", false],
  ["/api/m/applications/", true],
] as const;
