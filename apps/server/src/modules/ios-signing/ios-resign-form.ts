import type { FastifyRequest } from "fastify";
import { AppError } from "../../http/errors.ts";
import { checkedField } from "../../http/nul-guard.ts";
import { parseBundleIds, type ResignInput } from "./ios-resign-input.ts";

const maxFileBytes = 1024 * 1024;
const maxProfiles = 20;
const fileFields = new Set(["file_p12", "file_pp", "file_entitlements"]);

/**
 * The re-sign form: build_id, file_p12 with its password, one or more file_pp profiles, an
 * optional file_entitlements and bundle_ids. Every file is small (1 MiB at most) and bounded
 * while it streams in; every problem is reported per field at once.
 */
export async function readResignForm(request: FastifyRequest): Promise<ResignInput> {
  if (!request.isMultipart())
    throw AppError.validation({ non_field_errors: ["Send the form as multipart/form-data."] });
  const fields: Record<string, string> = {};
  const files: Record<string, Buffer[]> = {};
  for await (const part of request.parts({ limits: { fileSize: maxFileBytes, files: maxProfiles + 2 } })) {
    if (part.type === "field") {
      fields[part.fieldname] = checkedField(part.fieldname, String(part.value));
      continue;
    }
    if (!fileFields.has(part.fieldname)) {
      part.file.resume();
      throw AppError.validation({ [part.fieldname]: ["Unexpected file."] });
    }
    const bytes = await part.toBuffer().catch((error: { code?: string }) => {
      if (error.code === "FST_REQ_FILE_TOO_LARGE") return null;
      throw error;
    });
    if (!bytes || part.file.truncated)
      throw AppError.validation({ [part.fieldname]: ["The file must be at most 1 MiB."] });
    const list = files[part.fieldname] ?? [];
    list.push(bytes);
    files[part.fieldname] = list;
  }
  const problems: Record<string, string[]> = {};
  const buildId = Number(fields.build_id);
  if (!Number.isSafeInteger(buildId) || buildId <= 0) problems.build_id = ["A valid integer is required."];
  if (files.file_p12?.length !== 1) problems.file_p12 = ["Send exactly one .p12 file."];
  const password = fields.password ?? fields.p12_password ?? "";
  const profiles = files.file_pp ?? [];
  if (profiles.length === 0) problems.file_pp = ["Send at least one provisioning profile."];
  if (profiles.length > maxProfiles)
    problems.file_pp = [`Send at most ${maxProfiles} provisioning profiles.`];
  if ((files.file_entitlements?.length ?? 0) > 1)
    problems.file_entitlements = ["Send at most one entitlements file."];
  if (Object.keys(problems).length > 0) throw AppError.validation(problems);
  return {
    buildId,
    p12: (files.file_p12 as Buffer[])[0] as Buffer,
    password,
    profiles,
    entitlements: files.file_entitlements?.[0] ?? null,
    bundleIds: parseBundleIds(fields.bundle_ids),
  };
}
