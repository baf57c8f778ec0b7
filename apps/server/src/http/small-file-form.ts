import type { FastifyRequest } from "fastify";
import { AppError } from "./errors.ts";
import { checkedField } from "./nul-guard.ts";

export interface SmallFileField {
  maxBytes: number;
  /** The field error when the file is larger. */
  tooLarge: string;
}

/**
 * Reads a multipart form of text fields and a few small named files (a logo, a key file,
 * identity-provider metadata). Each file is bounded while it streams in, so an oversized one is
 * cut off rather than buffered; files of other names are refused.
 */
export async function readSmallFileForm(
  request: FastifyRequest,
  accepted: Record<string, SmallFileField>,
): Promise<{
  fields: Record<string, string>;
  files: Record<string, Buffer>;
  fileNames: Record<string, string>;
}> {
  const fields: Record<string, string> = {};
  const files: Record<string, Buffer> = {};
  const fileNames: Record<string, string> = {};
  const largest = Math.max(...Object.values(accepted).map((field) => field.maxBytes));
  for await (const part of request.parts({ limits: { fileSize: largest } })) {
    if (part.type === "field") {
      fields[part.fieldname] = checkedField(part.fieldname, String(part.value));
      continue;
    }
    const rule = accepted[part.fieldname];
    if (!rule || !Object.hasOwn(accepted, part.fieldname)) {
      part.file.resume();
      throw AppError.validation({ [part.fieldname]: ["Unexpected file."] });
    }
    const tooLarge = () => AppError.validation({ [part.fieldname]: [rule.tooLarge] });
    let bytes: Buffer;
    try {
      bytes = await part.toBuffer();
    } catch (error) {
      if ((error as { code?: string }).code === "FST_REQ_FILE_TOO_LARGE") throw tooLarge();
      throw error;
    }
    if (part.file.truncated || bytes.length > rule.maxBytes) throw tooLarge();
    files[part.fieldname] = bytes;
    fileNames[part.fieldname] = part.filename ?? "";
  }
  return { fields, files, fileNames };
}
