import { badRequestBody, udidDeviceList, udidLookupQuery, udidLookupResult } from "@tarmac/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireActiveActor } from "../../http/auth.ts";
import { errorResponses } from "../../http/error-responses.ts";
import { maxDeviceReplyBytes } from "./lib/device-reply.ts";
import type { UdidService } from "./udid.service.ts";

const tags = ["devices"];
const errors = errorResponses;

/** UDID collection: the profile, the device's reply, and the caller's devices. */
export function registerUdidRoutes(app: FastifyInstance, deps: { udid: UdidService }) {
  const { udid } = deps;
  // A scope of its own, so the raw PKCS#7 body parser (with its small cap) applies here only.
  app.register(async (scope) => {
    scope.addContentTypeParser(
      ["application/pkcs7-signature", "application/octet-stream"],
      { parseAs: "buffer", bodyLimit: maxDeviceReplyBytes },
      (_request, body, done) => done(null, body),
    );
    const routes = scope.withTypeProvider<ZodTypeProvider>();

    routes.get(
      "/api/udid/profile/",
      {
        schema: {
          tags,
          summary: "A signed profile that makes an iPhone or iPad report its UDID",
          security: [],
          produces: ["application/x-apple-aspen-config"],
        },
      },
      async (request, reply) => {
        const actor = request.actor?.isActive ? request.actor : null;
        const profile = await udid.createProfile(actor?.userId ?? null, request.ip);
        return reply
          .type("application/x-apple-aspen-config")
          .header("content-disposition", 'attachment; filename="udid.mobileconfig"')
          .header("cache-control", "no-store")
          .send(profile);
      },
    );

    routes.post(
      "/api/udid/enroll/",
      {
        schema: {
          tags,
          summary: "Where the device posts its signed identifiers (PKCS#7); redirects to the result page",
          security: [],
          consumes: ["application/pkcs7-signature"],
          response: { 301: z.null().describe("Redirect to the result page"), 400: badRequestBody },
        },
      },
      async (request, reply) => {
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const location = await udid.enroll(body);
        // iOS follows only a 301 here to show the page after installing the profile.
        return reply.status(301).header("location", location).send(null);
      },
    );

    routes.get(
      "/api/udid/devices/",
      {
        schema: {
          tags,
          summary: "My registered devices, with the builds whose profiles include each",
          response: { 200: udidDeviceList, ...errors },
        },
      },
      async (request) => udid.listDevices(requireActiveActor(request).userId),
    );

    routes.get(
      "/api/udid/lookup/",
      {
        schema: {
          tags,
          summary: "The builds I may see whose profiles include a UDID",
          querystring: udidLookupQuery,
          response: { 200: udidLookupResult, ...errors },
        },
      },
      async (request) => udid.lookup(requireActiveActor(request).userId, request.query.udid),
    );
  });
}
