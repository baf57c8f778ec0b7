import type { FastifyReply, FastifyRequest } from "fastify";
import {
  type IncomingFile,
  multipartAllowanceBytes,
  type UploadSource,
} from "../platform/storage/upload-source.ts";
import { AppError } from "./errors.ts";
import { checkedField } from "./nul-guard.ts";

/** The declared length of a request, or null when it is chunked. */
export function declaredLength(request: FastifyRequest): number | null {
  const value = Number(request.headers["content-length"]);
  return Number.isSafeInteger(value) && value >= 0 ? value : null;
}

/**
 * An onRequest hook for upload routes, before a byte of the body is read: a body that is not
 * multipart is refused (their body limit is gigabytes, so a JSON parser would buffer it all),
 * and so is a declared length no file within the upload limit can have (413).
 */
export function uploadRequestGuard(maxFileBytes: number) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    // Refused before its body is read: close rather than drain what the client goes on sending.
    reply.header("connection", "close");
    const type = request.headers["content-type"] ?? "";
    if (!/^multipart\/form-data\b/i.test(type)) {
      throw AppError.validation({ file: ["Send the build as multipart/form-data."] });
    }
    const declared = declaredLength(request);
    if (declared !== null && declared > maxFileBytes + multipartAllowanceBytes) {
      throw new AppError("file_too_large", 413, `The file is larger than ${maxFileBytes} bytes.`);
    }
    reply.removeHeader("connection");
  };
}

/**
 * A multipart request as an UploadSource: the one file must come in one of `fileFields`; any
 * other or second file is refused. Nothing is buffered: the file part streams to `onFile`.
 * Busboy's own cut-off is one byte past `maxFileBytes`, so the consumer's limit fires first.
 */
export function multipartUploadSource(
  request: FastifyRequest,
  options: { fileFields: string[]; maxFileBytes: number },
): UploadSource {
  if (!request.isMultipart()) throw AppError.validation({ file: ["Send the build as multipart/form-data."] });
  return {
    clientAddress: request.ip,
    async read(onFile) {
      const fields: Record<string, string> = {};
      let file: Awaited<ReturnType<typeof onFile>> | undefined;
      let seenFile = false;
      for await (const part of readParts(request, options.maxFileBytes)) {
        // Some CI clients pass `-F name=value` to curl as one argument, so names arrive as
        // " name": a name is matched without its surrounding spaces.
        const name = part.fieldname.trim();
        if (part.type === "field") {
          fields[name] = checkedField(name, String(part.value));
          continue;
        }
        if (seenFile) {
          part.file.resume();
          throw AppError.validation({ [name]: ["Send one file only."] });
        }
        if (!options.fileFields.includes(name)) {
          part.file.resume();
          throw AppError.validation({
            [name]: [`Send the build in the field ${fieldNames(options.fileFields)}.`],
          });
        }
        seenFile = true;
        const incoming: IncomingFile = {
          fieldName: name,
          fileName: checkedField(name, part.filename),
          contentType: part.mimetype,
          body: part.file,
          truncated: () => part.file.truncated,
          declaredRequestBytes: declaredLength(request),
        };
        try {
          file = await onFile(incoming, { ...fields });
        } catch (error) {
          part.file.resume();
          throw error;
        }
      }
      return { fields, file };
    },
  };
}

/** "app", or "file" or "app": the names a client may send the build under. */
export function fieldNames(names: string[]): string {
  return names.map((name) => `"${name}"`).join(" or ");
}

/**
 * The parts of the body; a body the parser cannot read (cut short, no final boundary, broken
 * headers) is the client's error, so it is a 400 rather than a 500. Limits keep their own
 * status (413 for a second file or too many fields).
 */
async function* readParts(request: FastifyRequest, maxFileBytes: number) {
  const parts = request.parts({ limits: { fileSize: maxFileBytes + 1 } })[Symbol.asyncIterator]();
  for (;;) {
    let next: Awaited<ReturnType<typeof parts.next>>;
    try {
      next = await parts.next();
    } catch (error) {
      if (error instanceof AppError || (error as { statusCode?: number }).statusCode) throw error;
      throw AppError.badRequest("The multipart body is incomplete or malformed.");
    }
    if (next.done) return;
    yield next.value;
  }
}
