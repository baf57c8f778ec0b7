import {
  createDistributionInput,
  distributionInstance,
  distributionListQuery,
  distributionPage,
  distributionRecord,
  updateDistributionInput,
  versionInstalls,
} from "@tarmac/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireActiveActor, requireActor } from "../../http/auth.ts";
import { errorResponses } from "../../http/error-responses.ts";
import { listAsPage } from "../../http/pagination.ts";
import { attachmentDisposition } from "../../platform/storage/content-disposition.ts";
import type { DistributionService } from "./distribution.service.ts";
import { iosInstallSupport } from "./ios-install-support.ts";
import type { PermanentLinkService } from "./permanent-link.service.ts";

const tags = ["distribution"];
const errors = errorResponses;
const idParams = z.object({ id: z.coerce.number().int().positive() });

/** Managing install links, install counts of versions and the printable permanent link. */
export function registerDistributionRoutes(
  app: FastifyInstance,
  deps: { distributions: DistributionService; permanentLinks: PermanentLinkService; publicUrl: string },
) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { distributions, permanentLinks } = deps;

  routes.get(
    "/api/distributions/",
    {
      schema: {
        tags,
        summary: "The app's install links; its permanent app-level link comes first",
        querystring: distributionListQuery,
        response: { 200: distributionPage, ...errors },
      },
    },
    async (request) =>
      listAsPage(
        request,
        deps.publicUrl,
        request.query,
        await distributions.listForApp(requireActiveActor(request).userId, request.query.app),
      ),
  );

  routes.get(
    "/api/distributions/instance/",
    {
      schema: {
        tags,
        summary: "What install links of this instance can do: iOS installs need it served over HTTPS",
        response: { 200: distributionInstance, ...errors },
      },
    },
    async (request) => {
      requireActor(request);
      return iosInstallSupport(deps.publicUrl);
    },
  );

  routes.post(
    "/api/distributions/",
    {
      schema: {
        tags,
        summary: "Create an install link for an app or one version",
        body: createDistributionInput,
        response: { 201: distributionRecord, ...errors },
      },
    },
    async (request, reply) => {
      const created = await distributions.create(requireActiveActor(request).userId, request.body);
      return reply.status(201).send(created);
    },
  );

  routes.patch(
    "/api/distributions/:id/",
    {
      schema: {
        tags,
        summary: "Change a link's name, access, password, expiry or install limit",
        params: idParams,
        body: updateDistributionInput,
        response: { 200: distributionRecord, ...errors },
      },
    },
    async (request) =>
      distributions.update(requireActiveActor(request).userId, request.params.id, request.body),
  );

  routes.delete(
    "/api/distributions/:id/",
    {
      schema: {
        tags,
        summary: "Delete an install link",
        params: idParams,
        response: { 204: z.null().describe("No content"), ...errors },
      },
    },
    async (request, reply) => {
      await distributions.remove(requireActiveActor(request).userId, request.params.id);
      return reply.status(204).send(null);
    },
  );

  routes.get(
    "/api/versions/:id/installs/",
    {
      schema: {
        tags,
        summary: "Installs and downloads of the version through install links, by platform",
        params: idParams,
        response: { 200: versionInstalls, ...errors },
      },
    },
    async (request) => distributions.versionInstalls(requireActiveActor(request).userId, request.params.id),
  );

  routes.get(
    "/api/applications/:id/permanent_link_pdf/",
    {
      schema: {
        tags,
        summary: "A printable PDF with the app's permanent install link and its QR code",
        params: idParams,
        produces: ["application/pdf"],
      },
    },
    async (request, reply) => {
      const { pdf, fileName } = await permanentLinks.render(
        requireActiveActor(request).userId,
        request.params.id,
      );
      return reply
        .type("application/pdf")
        .header("content-disposition", attachmentDisposition(fileName))
        .header("cache-control", "private, no-store")
        .send(pdf);
    },
  );
}
