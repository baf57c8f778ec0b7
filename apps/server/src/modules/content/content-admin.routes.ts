import {
  contentEntry,
  contentEntryInput,
  contentEntryPage,
  contentEntryQuery,
  contentPreview,
  contentPreviewInput,
  errorBody,
} from "@tarmac/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireInstanceAdmin } from "../../http/auth.ts";
import { pageParams, toPage } from "../../http/pagination.ts";
import type { ContentAdminService } from "./content-admin.service.ts";

const tags = ["admin"];
const idParams = z.object({ id: z.coerce.number().int().positive() });
const refusals = { 401: errorBody, 403: errorBody };

/** Refuses before the body is judged: only an administrator learns what a valid entry looks like. */
async function assertInstanceAdmin(request: FastifyRequest): Promise<void> {
  requireInstanceAdmin(request);
}

/** Instance administrators' editor of the public site (every call needs requireInstanceAdmin). */
export function registerContentAdminRoutes(
  app: FastifyInstance,
  deps: { editor: ContentAdminService; publicUrl: string },
) {
  const { editor } = deps;
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.get(
    "/api/admin/content/",
    {
      schema: {
        tags,
        summary: "Site content entries, drafts included",
        querystring: contentEntryQuery,
        response: { 200: contentEntryPage, ...refusals },
      },
    },
    async (request) => {
      requireInstanceAdmin(request);
      const params = pageParams(request.query, 50);
      const { kind, language, search } = request.query;
      const { count, results } = await editor.list(params, { kind, language, search });
      return toPage(request, deps.publicUrl, params, count, results);
    },
  );

  typed.post(
    "/api/admin/content/",
    {
      preValidation: assertInstanceAdmin,
      schema: {
        tags,
        summary: "Write a new entry",
        body: contentEntryInput,
        response: { 201: contentEntry, 400: z.record(z.string(), z.array(z.string())), ...refusals },
      },
    },
    async (request, reply) => {
      const actor = requireInstanceAdmin(request);
      return reply.status(201).send(await editor.create(actor.userId, request.body));
    },
  );

  typed.post(
    "/api/admin/content/preview/",
    {
      preValidation: assertInstanceAdmin,
      schema: {
        tags,
        summary: "Render Markdown as visitors would see it",
        body: contentPreviewInput,
        response: { 200: contentPreview, ...refusals },
      },
    },
    async (request) => {
      requireInstanceAdmin(request);
      return editor.preview(request.body.body);
    },
  );

  typed.get(
    "/api/admin/content/:id/",
    {
      schema: {
        tags,
        summary: "One entry",
        params: idParams,
        response: { 200: contentEntry, 404: errorBody, ...refusals },
      },
    },
    async (request) => {
      requireInstanceAdmin(request);
      return editor.get(request.params.id);
    },
  );

  typed.put(
    "/api/admin/content/:id/",
    {
      preValidation: assertInstanceAdmin,
      schema: {
        tags,
        summary: "Replace an entry (publish or unpublish with status)",
        params: idParams,
        body: contentEntryInput,
        response: { 200: contentEntry, 404: errorBody, ...refusals },
      },
    },
    async (request) => {
      const actor = requireInstanceAdmin(request);
      return editor.update(actor.userId, request.params.id, request.body);
    },
  );

  typed.delete(
    "/api/admin/content/:id/",
    {
      schema: {
        tags,
        summary: "Remove an entry",
        params: idParams,
        response: { 204: z.null().describe("No content"), 404: errorBody, ...refusals },
      },
    },
    async (request, reply) => {
      requireInstanceAdmin(request);
      await editor.remove(request.params.id);
      return reply.status(204).send(null);
    },
  );
}
