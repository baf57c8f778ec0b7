import type { FastifyRequest } from "fastify";
import { AppError } from "../../http/errors.ts";
import { checkedField } from "../../http/nul-guard.ts";
import { maxLogoBytes } from "./logo.ts";

const tooLarge = () => AppError.validation({ logo: ["The logo must be at most 2 MB."] });

/**
 * Reads a multipart PATCH: text fields plus at most one `logo` file. The file is bounded at the
 * logo limit while it streams in, so an oversized upload is cut off rather than buffered.
 */
export async function readOrganizationForm(
  request: FastifyRequest,
): Promise<{ fields: Record<string, string>; logo?: Buffer }> {
  const fields: Record<string, string> = {};
  let logo: Buffer | undefined;
  for await (const part of request.parts({ limits: { fileSize: maxLogoBytes } })) {
    if (part.type === "field") {
      fields[part.fieldname] = checkedField(part.fieldname, String(part.value));
      continue;
    }
    if (part.fieldname !== "logo") {
      part.file.resume();
      throw AppError.validation({ [part.fieldname]: ["Unexpected file."] });
    }
    try {
      logo = await part.toBuffer();
    } catch (error) {
      if ((error as { code?: string }).code === "FST_REQ_FILE_TOO_LARGE") throw tooLarge();
      throw error;
    }
    if (part.file.truncated) throw tooLarge();
  }
  return logo ? { fields, logo } : { fields };
}
