import type { FastifyRequest } from "fastify";
import { readSmallFileForm } from "../../http/small-file-form.ts";
import { maxLogoBytes } from "./logo.ts";

/** Reads a multipart PATCH: text fields plus at most one `logo` file, bounded at the logo limit. */
export async function readOrganizationForm(
  request: FastifyRequest,
): Promise<{ fields: Record<string, string>; logo?: Buffer }> {
  const { fields, files } = await readSmallFileForm(request, {
    logo: { maxBytes: maxLogoBytes, tooLarge: "The logo must be at most 2 MB." },
  });
  return files.logo ? { fields, logo: files.logo } : { fields };
}
