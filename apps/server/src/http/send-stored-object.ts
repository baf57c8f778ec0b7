import type { FastifyReply, FastifyRequest } from "fastify";
import type { StorageDriver } from "../platform/storage/storage-driver.ts";
import { attachmentDisposition, parseRange } from "./byte-range.ts";
import { AppError } from "./errors.ts";

export interface StoredObjectReply {
  key: string;
  contentType: string;
  /** Sent as an attachment under this name; inline when empty. */
  fileName: string;
  /** Called once a response that carried the object's last byte was handed over completely. */
  onDelivered?: () => void;
}

/**
 * Sends a stored object with Range (206/416), HEAD and a length, streaming from storage. Shared by
 * every route that serves files behind signed links, so they all behave the same for installers
 * and download managers.
 */
export async function sendStoredObject(
  request: FastifyRequest,
  reply: FastifyReply,
  storage: StorageDriver,
  object: StoredObjectReply,
) {
  const info = await storage.stat(object.key);
  if (!info) throw AppError.notFound();
  const range = parseRange(request.headers.range, info.size);
  reply.header("accept-ranges", "bytes");
  reply.header("cache-control", "private, max-age=0, no-store");
  if (range.kind === "unsatisfiable") {
    reply.header("content-range", `bytes */${info.size}`);
    return reply.status(416).send({ detail: "Requested range not satisfiable." });
  }
  reply.header("content-type", object.contentType || "application/octet-stream");
  if (object.fileName) reply.header("content-disposition", attachmentDisposition(object.fileName));
  const { start, end } = range.kind === "partial" ? range.range : { start: 0, end: info.size - 1 };
  reply.header("content-length", String(Math.max(0, end - start + 1)));
  if (range.kind === "partial") {
    reply.status(206).header("content-range", `bytes ${start}-${end}/${info.size}`);
  }
  if (request.method === "HEAD") return reply.send();
  const { onDelivered } = object;
  if (onDelivered && end >= info.size - 1) {
    // "finish" fires only when the whole body was handed to the socket; an aborted download
    // closes without it.
    reply.raw.once("finish", onDelivered);
  }
  if (info.size === 0) return reply.send();
  return reply.send(await storage.read(object.key, { start, end }));
}
