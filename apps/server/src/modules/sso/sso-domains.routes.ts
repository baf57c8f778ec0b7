import { organizationIdParams, ssoDomain, ssoDomainInput } from "@tarmac/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireActiveActor } from "../../http/auth.ts";
import { errorResponses } from "../../http/error-responses.ts";
import type { DomainClaimsService } from "./sso-domains.service.ts";

const tags = ["single sign-on"];
const claimParams = organizationIdParams.extend({ domain: z.coerce.number().int().positive() });

/** `/api/orgs-sso-domains/{id}/`: the organization's e-mail domains and their DNS proof (admins). */
export function registerSsoDomainRoutes(app: FastifyInstance, deps: { domains: DomainClaimsService }) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { domains } = deps;

  routes.get(
    "/api/orgs-sso-domains/:id/",
    {
      schema: {
        tags,
        summary: "The organization's claimed e-mail domains, with the TXT record that proves each",
        params: organizationIdParams,
        response: { 200: z.array(ssoDomain), ...errorResponses },
      },
    },
    async (request) => domains.list(requireActiveActor(request).userId, request.params.id),
  );

  routes.post(
    "/api/orgs-sso-domains/:id/",
    {
      schema: {
        tags,
        summary:
          "Claim an e-mail domain (public mail services cannot be claimed); prove it with its TXT record",
        params: organizationIdParams,
        body: ssoDomainInput,
        response: { 201: ssoDomain, ...errorResponses },
      },
    },
    async (request, reply) => {
      const claim = await domains.add(
        requireActiveActor(request).userId,
        request.params.id,
        request.body.domain,
      );
      return reply.status(201).send(claim);
    },
  );

  routes.post(
    "/api/orgs-sso-domains/:id/:domain/verify/",
    {
      schema: {
        tags,
        summary: "Look up the domain's TXT record now; the claim is proven when it is there",
        params: claimParams,
        response: { 200: ssoDomain, ...errorResponses },
      },
    },
    async (request) =>
      domains.verify(requireActiveActor(request).userId, request.params.id, request.params.domain),
  );

  routes.delete(
    "/api/orgs-sso-domains/:id/:domain/",
    {
      schema: {
        tags,
        summary: "Give up a domain claim",
        params: claimParams,
        response: { 204: z.null().describe("No content"), ...errorResponses },
      },
    },
    async (request, reply) => {
      await domains.remove(requireActiveActor(request).userId, request.params.id, request.params.domain);
      return reply.status(204).send(null);
    },
  );
}
