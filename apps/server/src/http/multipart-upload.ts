import type { FastifyRequest } from "fastify";
import type { IncomingFile, UploadSource } from "../platform/storage/upload-source.ts";
import { AppError } from "./errors.ts";
import { checkedField } from "./nul-guard.ts";

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
    async read(onFile) {
      const fields: Record<string, string> = {};
      let file: Awaited<ReturnType<typeof onFile>> | undefined;
      let seenFile = false;
      for await (const part of request.parts({ limits: { fileSize: options.maxFileBytes + 1 } })) {
        if (part.type === "field") {
          fields[part.fieldname] = checkedField(part.fieldname, String(part.value));
          continue;
        }
        if (seenFile || !options.fileFields.includes(part.fieldname)) {
          part.file.resume();
          throw AppError.validation({ [part.fieldname]: ["Unexpected file."] });
        }
        seenFile = true;
        const incoming: IncomingFile = {
          fieldName: part.fieldname,
          fileName: checkedField(part.fieldname, part.filename),
          contentType: part.mimetype,
          body: part.file,
          truncated: () => part.file.truncated,
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
