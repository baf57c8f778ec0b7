import { createHash } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";

/** A strong validator for a representation: the hash of exactly the bytes sent. */
export function etagOf(payload: string | Buffer): string {
  return `"${createHash("sha256").update(payload).digest("base64url").slice(0, 27)}"`;
}

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === "*") return true;
  // Weak comparison (RFC 9110 §13.1.2): W/ prefixes do not matter for If-None-Match.
  return ifNoneMatch.split(",").some((candidate) => candidate.trim().replace(/^W\//, "") === etag);
}

/**
 * Sends `payload` with an ETag, or 304 without a body when the client already holds it. Clients
 * must revalidate (no-cache), so an edit shows on the next request; `vary` names the request
 * headers that choose the representation.
 */
export function sendWithEtag(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: string,
  options: { contentType: string; vary?: string },
): FastifyReply {
  const etag = etagOf(payload);
  reply.header("etag", etag).header("cache-control", "no-cache");
  if (options.vary) reply.header("vary", options.vary);
  if (matches(request.headers["if-none-match"], etag)) return reply.status(304).send();
  return reply.type(options.contentType).send(payload);
}
