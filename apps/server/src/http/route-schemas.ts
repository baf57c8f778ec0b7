import type { FastifyRequest } from "fastify";
import { z } from "zod";
import { requireActiveActor } from "./auth.ts";

/** A numeric id in the path (`/:id/`). */
export const idParams = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

/** A query switch, sent as ?x=1 (or true). */
export const queryFlag = z
  .enum(["1", "true", "0", "false", ""])
  .optional()
  .transform((value) => value === "1" || value === "true");

/** Authentication comes before body validation: a signed-out caller learns 401, not field errors. */
export const signedInFirst = {
  preValidation: async (request: FastifyRequest) => {
    requireActiveActor(request);
  },
};
