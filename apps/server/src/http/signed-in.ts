import type { FastifyRequest } from "fastify";
import { requireActor } from "./auth.ts";

/** A preValidation hook: an anonymous request gets 401 before its body is judged (400). */
export async function assertSignedIn(request: FastifyRequest): Promise<void> {
  requireActor(request);
}
