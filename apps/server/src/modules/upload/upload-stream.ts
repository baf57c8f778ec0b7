import { randomUUID } from "node:crypto";
import { fileNameTooLongMessage, maxUploadFileNameLength } from "@tarmac/contracts";
import { acceptedExtensions, extensionOf } from "@tarmac/inspector/rules";
import type { FastifyRequest } from "fastify";
import { AppError } from "../../http/errors.ts";
import { ObjectTooLargeError } from "../../platform/storage/storage-driver.ts";
import type { OrganizationStorage } from "../../platform/storage/storage-resolver.ts";
import { unsupportedFileType, uploadError } from "./upload-errors.ts";

const accepted = new Set(Object.values(acceptedExtensions).flat());

export interface UploadTarget {
  organizationId: number;
  storage: OrganizationStorage;
  /** Bytes the plan still allows; the write is cut off past it (error 6). */
  maxBytes?: number;
}

export interface StreamedFile {
  key: string;
  size: number;
  sha256: string;
  fileName: string;
  contentType: string;
  storage: OrganizationStorage;
  organizationId: number;
}

export function buildKey(organizationId: number): string {
  return `orgs/${organizationId}/builds/${randomUUID()}`;
}

/** Checks a file name before a byte is stored: length (the spec's DRF message), then extension. */
export function checkFileName(field: string, fileName: string): void {
  const length = [...fileName].length;
  if (length > maxUploadFileNameLength) {
    throw AppError.validation({ [field]: [`${fileNameTooLongMessage} (it has ${length}).`] });
  }
  if (!accepted.has(`.${extensionOf(fileName)}`)) throw unsupportedFileType();
}

/**
 * Reads a multipart build upload: text fields plus the one file of `fileField`, streamed to
 * storage under a key of our own while it is hashed. `target` runs when the file part
 * starts, with the fields read so far, and decides where it goes and how big it may be.
 * Nothing is buffered: memory stays flat whatever the size.
 */
export async function streamBuildUpload(
  request: FastifyRequest,
  options: {
    fileField: string;
    maxFileBytes: number;
    target: (fields: Record<string, string>, fileName: string) => Promise<UploadTarget>;
  },
): Promise<{ fields: Record<string, string>; file: StreamedFile | null }> {
  const fields: Record<string, string> = {};
  let file: StreamedFile | null = null;
  // Busboy's own cut-off is one byte later than ours, so our error is the one that fires.
  const parts = request.parts({ limits: { fileSize: options.maxFileBytes + 1 } });
  for await (const part of parts) {
    if (part.type === "field") {
      fields[part.fieldname] = String(part.value);
      continue;
    }
    if (part.fieldname !== options.fileField || file) {
      part.file.resume();
      throw AppError.validation({ [part.fieldname]: ["Unexpected file."] });
    }
    const fileName = part.filename;
    try {
      checkFileName(options.fileField, fileName);
      const target = await options.target(fields, fileName);
      file = await storeFilePart(part.file, target, fileName, options.maxFileBytes, part.mimetype);
    } catch (error) {
      part.file.resume();
      throw error;
    }
  }
  return { fields, file };
}

async function storeFilePart(
  stream: NodeJS.ReadableStream & { truncated?: boolean; on(event: "error", listener: () => void): unknown },
  target: UploadTarget,
  fileName: string,
  maxFileBytes: number,
  mimetype: string,
): Promise<StreamedFile> {
  const { driver, custom } = target.storage;
  const key = buildKey(target.organizationId);
  const spaceBound = target.maxBytes !== undefined && target.maxBytes < maxFileBytes;
  const maxBytes = Math.min(maxFileBytes, target.maxBytes ?? maxFileBytes);
  if (maxBytes <= 0) throw uploadError(6);
  // A failing client is not a failing storage: remember which side broke.
  let sourceFailed = false;
  stream.on("error", () => {
    sourceFailed = true;
  });
  try {
    const stored = await driver.put(key, stream as import("node:stream").Readable, { maxBytes });
    if (stream.truncated) {
      await driver.delete(key);
      throw fileTooLarge(maxFileBytes);
    }
    return {
      ...stored,
      fileName,
      contentType:
        mimetype && mimetype !== "application/octet-stream" ? mimetype : "application/octet-stream",
      storage: target.storage,
      organizationId: target.organizationId,
    };
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (error instanceof ObjectTooLargeError) throw spaceBound ? uploadError(6) : fileTooLarge(maxFileBytes);
    if (!sourceFailed && custom) throw uploadError(10);
    throw error;
  }
}

function fileTooLarge(limit: number): AppError {
  return new AppError("file_too_large", 413, `The file is larger than ${limit} bytes.`);
}
