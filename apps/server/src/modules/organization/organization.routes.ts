import {
  createOrganizationInput,
  deleteOrganizationInput,
  errorBody,
  organization,
  organizationDetailQuery,
  organizationIdParams,
  organizationPage,
  organizationSelector,
  organizationUsage,
  ownerTransferInput,
  pageQuery,
  patchOrganizationInput,
  updateOrganizationInput,
  usageQuery,
} from "@tarmac/contracts";
import type { FastifyInstance, FastifyReply } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { requireActiveActor } from "../../http/auth.ts";
import { errorResponses } from "../../http/error-responses.ts";
import { pageParams, toPage } from "../../http/pagination.ts";
import { parseInput } from "../../http/parse-input.ts";
import { requireXsrfForCookieAuth } from "../../http/xsrf.ts";
import type { OrganizationService } from "./organization.service.ts";
import { readOrganizationForm } from "./organization-form.ts";
import type { OrganizationLifecycleService } from "./organization-lifecycle.service.ts";
import type { OrganizationUsageService } from "./organization-usage.service.ts";

const tags = ["organizations"];
const errors = errorResponses;

export function registerOrganizationRoutes(
  app: FastifyInstance,
  deps: {
    organizations: OrganizationService;
    lifecycle: OrganizationLifecycleService;
    usage: OrganizationUsageService;
    publicUrl: string;
  },
) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { organizations, lifecycle, usage } = deps;

  routes.post(
    "/api/organizations/",
    {
      schema: {
        tags,
        summary: "Create an organization (the caller becomes its owner)",
        body: createOrganizationInput,
        response: { 201: organization, ...errors },
      },
    },
    async (request, reply) => {
      const actor = requireActiveActor(request);
      reply.status(201);
      return organizations.create(actor.userId, request.body);
    },
  );

  routes.get(
    "/api/organizations/",
    {
      schema: {
        tags,
        summary: "The caller's organizations",
        querystring: pageQuery,
        response: { 200: organizationPage, ...errors },
      },
    },
    async (request) => {
      const actor = requireActiveActor(request);
      const params = pageParams(request.query, 20);
      const { count, results } = await organizations.list(actor.userId, params);
      return toPage(request, deps.publicUrl, params, count, results);
    },
  );

  routes.get(
    "/api/organizations/:id/",
    {
      schema: {
        tags,
        summary: "One organization; ?newsdkkey=1 rotates the SDK key, ?sendemaillimit=1 notifies the owner",
        params: organizationIdParams,
        querystring: organizationDetailQuery,
        response: { 200: organization, ...errors },
      },
    },
    async (request) => {
      const actor = requireActiveActor(request);
      const { id } = request.params;
      if (request.query.newsdkkey || request.query.sendemaillimit) requireXsrfForCookieAuth(request);
      if (request.query.newsdkkey) return organizations.rotateSdkKey(actor.userId, id);
      if (request.query.sendemaillimit) return organizations.sendLimitNotice(actor.userId, id);
      return organizations.get(actor.userId, id);
    },
  );

  routes.put(
    "/api/organizations/:id/",
    {
      schema: {
        tags,
        summary: "Replace an organization's title and subdomain",
        params: organizationIdParams,
        body: updateOrganizationInput,
        response: { 200: organization, ...errors },
      },
    },
    async (request) => {
      const actor = requireActiveActor(request);
      return organizations.update(actor.userId, request.params.id, request.body);
    },
  );

  routes.patch(
    "/api/organizations/:id/",
    {
      schema: {
        tags,
        summary:
          "Change some fields: JSON {title?, subdomain?}, or multipart with a `logo` file (PNG, JPEG, WebP; 2 MB)",
        params: organizationIdParams,
        response: { 200: organization, ...errors },
      },
    },
    async (request) => {
      const actor = requireActiveActor(request);
      if (request.isMultipart()) {
        const form = await readOrganizationForm(request);
        const input = parseInput(patchOrganizationInput, form.fields);
        return organizations.update(actor.userId, request.params.id, input, form.logo);
      }
      const input = parseInput(patchOrganizationInput, request.body);
      return organizations.update(actor.userId, request.params.id, input);
    },
  );

  routes.get(
    "/api/organizations/:id/logo/",
    {
      schema: {
        tags,
        summary: "The organization's logo image (members only)",
        params: organizationIdParams,
        response: { 401: errorBody, 403: errorBody, 404: errorBody },
      },
    },
    async (request, reply) => {
      const actor = requireActiveActor(request);
      const logo = await organizations.readLogo(actor.userId, request.params.id);
      reply.header("content-type", logo.contentType);
      reply.header("content-length", String(logo.size));
      reply.header("cache-control", "private, max-age=86400");
      // A stream is sent as is; the typed reply only knows the JSON error shapes.
      return (reply as FastifyReply).send(logo.body);
    },
  );

  routes.post(
    "/api/organization/delete/",
    {
      schema: {
        tags,
        summary:
          "Delete an organization and everything in it (owner, password confirmed); which one: `organization`, else ?org= or ?subdomain=, else your only one",
        body: deleteOrganizationInput,
        querystring: organizationSelector,
        response: { 202: errorBody, ...errors },
      },
    },
    async (request, reply) => {
      const actor = requireActiveActor(request);
      reply.status(202);
      const { organization, password } = request.body;
      const selector = organization !== undefined ? { org: organization } : request.query;
      return lifecycle.requestDeletion(actor.userId, { selector, password });
    },
  );

  routes.post(
    "/api/organization/owner-transfer/",
    {
      schema: {
        tags,
        summary: "Hand ownership to another member (the old owner becomes an admin)",
        body: ownerTransferInput,
        response: { 200: errorBody, ...errors },
      },
    },
    async (request) => {
      const actor = requireActiveActor(request);
      return lifecycle.transferOwnership(actor.userId, request.body);
    },
  );

  routes.get(
    "/api/organization/usage/",
    {
      schema: {
        tags: ["plans"],
        summary: "An organization's usage against its plan",
        querystring: usageQuery,
        response: { 200: organizationUsage, 401: errorBody, 403: errorBody, 404: errorBody },
      },
    },
    async (request) => {
      const actor = requireActiveActor(request);
      return usage.getUsage(actor.userId, request.query);
    },
  );
}
