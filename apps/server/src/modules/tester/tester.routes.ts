import {
  appListQuery,
  appMail,
  appMailPage,
  createAppMailInput,
  createTesterGroupInput,
  createTesterInput,
  tester,
  testerCsvFields,
  testerCsvMaxBytes,
  testerCsvResult,
  testerGroup,
  testerGroupPage,
  testerListQuery,
  testerPage,
  usersInGroups,
} from "@tarmac/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireActiveActor } from "../../http/auth.ts";
import { errorResponses } from "../../http/error-responses.ts";
import { AppError } from "../../http/errors.ts";
import { checkedField } from "../../http/nul-guard.ts";
import { listAsPage, pageJson, pageParams, sendJson, toPage } from "../../http/pagination.ts";
import { parseInput } from "../../http/parse-input.ts";
import type { TesterService } from "./tester.service.ts";

const tags = ["testers"];
const errors = errorResponses;
const noContent = z.null().describe("No content");
const idParams = z.object({ id: z.coerce.number().int().positive() });

export function registerTesterRoutes(
  app: FastifyInstance,
  deps: { testers: TesterService; publicUrl: string },
) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { testers } = deps;

  routes.get(
    "/api/testers/",
    {
      schema: {
        tags,
        summary: "Testers of an app (?app=) or of one group (?groups=)",
        querystring: testerListQuery,
        response: { 200: testerPage, ...errors },
      },
    },
    async (request, reply) => {
      const params = pageParams(request.query, 100);
      const page = await testers.list(requireActiveActor(request), request.query, params);
      return sendJson(reply, pageJson(toPage(request, deps.publicUrl, params, page.count, []), page.results));
    },
  );

  routes.post(
    "/api/testers/",
    {
      schema: {
        tags,
        summary: "Add a tester (or update the one with this address)",
        body: createTesterInput,
        response: { 201: tester, ...errors },
      },
    },
    async (request, reply) => {
      const { userId } = requireActiveActor(request);
      const { tester: saved } = await testers.add(userId, request.body);
      return reply.status(201).send(saved);
    },
  );

  routes.delete(
    "/api/testers/:id/",
    {
      schema: { tags, summary: "Remove a tester", params: idParams, response: { 204: noContent, ...errors } },
    },
    async (request, reply) => {
      await testers.remove(requireActiveActor(request).userId, request.params.id);
      return reply.status(204).send(null);
    },
  );

  routes.get(
    "/api/group-testers/",
    {
      schema: {
        tags,
        summary: "Groups of testers of an app",
        querystring: appListQuery,
        response: { 200: testerGroupPage, ...errors },
      },
    },
    async (request) =>
      listAsPage(
        request,
        deps.publicUrl,
        request.query,
        await testers.listGroups(requireActiveActor(request).userId, request.query.app),
      ),
  );

  routes.post(
    "/api/group-testers/",
    {
      schema: {
        tags,
        summary: "Create a group of testers",
        body: createTesterGroupInput,
        response: { 201: testerGroup, ...errors },
      },
    },
    async (request, reply) => {
      const group = await testers.createGroup(requireActiveActor(request).userId, request.body);
      return reply.status(201).send(group);
    },
  );

  routes.delete(
    "/api/group-testers/:id/",
    {
      schema: {
        tags,
        summary: "Delete a group (its testers stay)",
        params: idParams,
        response: { 204: noContent, ...errors },
      },
    },
    async (request, reply) => {
      await testers.removeGroup(requireActiveActor(request).userId, request.params.id);
      return reply.status(204).send(null);
    },
  );

  routes.post(
    "/api/upload-csv-app-group/",
    {
      schema: {
        tags,
        summary: "Import testers into a group (multipart: csv file, app, group); all lines or none",
        consumes: ["multipart/form-data"],
        // 400 is {errors: [{line, message}]} for a bad file, field errors otherwise.
        response: { 200: testerCsvResult, ...errors },
      },
    },
    async (request) => {
      const { userId } = requireActiveActor(request);
      const form = await readCsvForm(request);
      const fields = parseInput(testerCsvFields, form.fields);
      return testers.importCsv(userId, { ...fields, csv: form.csv });
    },
  );

  routes.get(
    "/api/app-mails/",
    {
      schema: {
        tags,
        summary: "Saved recipient addresses of an app",
        querystring: appListQuery,
        response: { 200: appMailPage, ...errors },
      },
    },
    async (request) =>
      listAsPage(
        request,
        deps.publicUrl,
        request.query,
        await testers.listAppMails(requireActiveActor(request).userId, request.query.app),
      ),
  );

  routes.post(
    "/api/app-mails/",
    {
      schema: {
        tags,
        summary: "Save a recipient address",
        body: createAppMailInput,
        response: { 201: appMail, ...errors },
      },
    },
    async (request, reply) => {
      const saved = await testers.createAppMail(requireActiveActor(request).userId, request.body);
      return reply.status(201).send(saved);
    },
  );

  routes.delete(
    "/api/app-mails/:id/",
    {
      schema: {
        tags,
        summary: "Remove a saved address",
        params: idParams,
        response: { 204: noContent, ...errors },
      },
    },
    async (request, reply) => {
      await testers.removeAppMail(requireActiveActor(request).userId, request.params.id);
      return reply.status(204).send(null);
    },
  );

  routes.get(
    "/api/applications/:id/users_in_groups/",
    {
      schema: {
        tags,
        summary: "The app's groups with their testers",
        params: idParams,
        response: { 200: usersInGroups, ...errors },
      },
    },
    async (request) => testers.usersInGroups(requireActiveActor(request).userId, request.params.id),
  );
}

/** Text fields plus the `csv` file, cut off at 1 MB while it streams in. */
async function readCsvForm(
  request: FastifyRequest,
): Promise<{ fields: Record<string, string>; csv: Buffer }> {
  if (!request.isMultipart()) throw AppError.validation({ csv: ["Send the file as multipart/form-data."] });
  const tooLarge = () => AppError.validation({ csv: ["The file must be at most 1 MB."] });
  const fields: Record<string, string> = {};
  let csv: Buffer | undefined;
  for await (const part of request.parts({ limits: { fileSize: testerCsvMaxBytes } })) {
    if (part.type === "field") {
      fields[part.fieldname] = checkedField(part.fieldname, String(part.value));
      continue;
    }
    if (part.fieldname !== "csv") {
      part.file.resume();
      throw AppError.validation({ [part.fieldname]: ["Unexpected file."] });
    }
    try {
      csv = await part.toBuffer();
    } catch (error) {
      if ((error as { code?: string }).code === "FST_REQ_FILE_TOO_LARGE") throw tooLarge();
      throw error;
    }
    if (part.file.truncated) throw tooLarge();
  }
  if (!csv) throw AppError.validation({ csv: ["No file was submitted."] });
  return { fields, csv };
}
