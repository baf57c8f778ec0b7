import { PassThrough, type Readable } from "node:stream";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { RoutedStorage } from "../platform/storage/routed-storage.ts";
import type { StorageDriver } from "../platform/storage/storage-driver.ts";

/** Long enough for a slow phone to start the download; a started download does not need it again. */
const directLinkSeconds = 300;

import { attachmentDisposition } from "../platform/storage/content-disposition.ts";
import { parseRange } from "./byte-range.ts";
import { AppError } from "./errors.ts";

export interface StoredObjectReply {
  key: string;
  contentType: string;
  /** Sent as an attachment under this name; inline when empty. */
  fileName: string;
  /** Called once a response that carried the object's last byte was handed over completely. */
  onDelivered?: () => void;
  /** Called when a response ends without having sent a byte of the object (refused, failed, cut). */
  onAbandoned?: () => void;
}

/**
 * Sends a stored object with Range (206/416), HEAD and a length, streaming from storage. Shared by
 * every route that serves files behind signed links, so they all behave the same for installers
 * and download managers.
 */
export async function sendStoredObject(
  request: FastifyRequest,
  reply: FastifyReply,
  storage: StorageDriver & Partial<Pick<RoutedStorage, "directUrl">>,
  object: StoredObjectReply,
) {
  // A bucket that installers can reach serves the bytes itself (Range included); the link is
  // short-lived and carries the file name and type. Delivery is counted when it is handed out.
  const direct = await storage
    .directUrl?.(object.key, {
      expiresInSeconds: directLinkSeconds,
      fileName: object.fileName || undefined,
      contentType: object.contentType || undefined,
    })
    .catch((error: unknown) => {
      object.onAbandoned?.();
      throw error;
    });
  if (direct) {
    if (request.method !== "HEAD") object.onDelivered?.();
    else object.onAbandoned?.();
    reply.header("cache-control", "private, max-age=0, no-store");
    return reply.redirect(direct, 302);
  }
  const info = await storage.stat(object.key).catch((error: unknown) => {
    object.onAbandoned?.();
    throw error;
  });
  if (!info) {
    object.onAbandoned?.();
    throw AppError.notFound();
  }
  const range = parseRange(request.headers.range, info.size);
  reply.header("accept-ranges", "bytes");
  reply.header("cache-control", "private, max-age=0, no-store");
  if (range.kind === "unsatisfiable") {
    object.onAbandoned?.();
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
  const body = await storage.read(object.key, { start, end });
  return reply.send(object.onAbandoned ? watchForNothingSent(reply, body, object.onAbandoned) : body);
}

/**
 * Calls `abandoned` when the response ends without having sent a byte of the object: the client
 * went away first or storage failed. Counts what this process piped out, since a socket's own
 * counters include headers and are not there in every transport.
 */
function watchForNothingSent(reply: FastifyReply, body: Readable, abandoned: () => void): Readable {
  let sent = 0;
  let finished = false;
  const counted = body.pipe(
    new PassThrough({
      transform(chunk: Buffer, _encoding, callback) {
        sent += chunk.length;
        callback(null, chunk);
      },
    }),
  );
  body.once("error", (error) => counted.destroy(error));
  reply.raw.once("finish", () => {
    finished = true;
  });
  reply.raw.once("close", () => {
    if (!finished && sent === 0) abandoned();
  });
  return counted;
}
