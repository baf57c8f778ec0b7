import { randomUUID } from "node:crypto";
import { fileNameTooLongMessage, maxUploadFileNameLength } from "@tarmac/contracts";
import { acceptedExtensions, extensionOf } from "@tarmac/inspector/rules";
import { AppError } from "../../http/errors.ts";
import { ObjectTooLargeError, SourceStreamError } from "../../platform/storage/storage-driver.ts";
import type { OrganizationStorage } from "../../platform/storage/storage-resolver.ts";
import {
  type IncomingFile,
  multipartAllowanceBytes,
  type UploadSource,
} from "../../platform/storage/upload-source.ts";
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
 * Stores the file of an upload under a key of our own while it is hashed, cut off past the
 * upload limit (413) or the space the plan has left (error 6). Nothing is buffered: memory
 * stays flat whatever the size. A storage failure on an organization's own storage is error 10.
 */
export async function storeIncomingFile(
  file: IncomingFile,
  target: UploadTarget,
  maxFileBytes: number,
): Promise<StreamedFile> {
  checkFileName(file.fieldName, file.fileName);
  // Someone else's organization does not learn that the upload exists.
  if (file.organizationId !== undefined && file.organizationId !== target.organizationId) {
    throw AppError.notFound();
  }
  const { driver, custom } = target.storage;
  const key = buildKey(target.organizationId);
  const spaceBound = target.maxBytes !== undefined && target.maxBytes < maxFileBytes;
  const maxBytes = Math.min(maxFileBytes, target.maxBytes ?? maxFileBytes);
  if (maxBytes <= 0) throw uploadError(6);
  // A declared length no file within the plan's remaining space can have is refused unread.
  if (spaceBound && (file.declaredRequestBytes ?? 0) > maxBytes + multipartAllowanceBytes)
    throw uploadError(6);
  try {
    if (file.assemble) {
      // Its size is known: one that does not fit is refused before anything happens to it.
      if ((file.declaredRequestBytes ?? 0) > maxBytes)
        throw spaceBound ? uploadError(6) : fileTooLarge(maxFileBytes);
      return { ...(await file.assemble()), ...describe(file, target) };
    }
    const stored = await driver.put(key, file.body, { maxBytes });
    if (file.truncated()) {
      await driver.delete(stored.key);
      throw fileTooLarge(maxFileBytes);
    }
    return { ...stored, ...describe(file, target) };
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (error instanceof ObjectTooLargeError) throw spaceBound ? uploadError(6) : fileTooLarge(maxFileBytes);
    // Bytes read back from storage (a resumable upload): their failure is the server's, or the
    // answer of a request that took the upload first.
    if (error instanceof SourceStreamError && file.organizationId !== undefined) throw error.reason;
    // A body that broke off (cut short, no final boundary) is the client's error, not storage's.
    if (error instanceof SourceStreamError) {
      throw AppError.badRequest("The upload was cut short: the multipart body is incomplete.");
    }
    if (custom) {
      await target.storage.writeRefused?.(error);
      throw uploadError(10);
    }
    throw error;
  }
}

function describe(file: IncomingFile, target: UploadTarget) {
  return {
    fileName: file.fileName,
    contentType:
      file.contentType && file.contentType !== "application/octet-stream"
        ? file.contentType
        : "application/octet-stream",
    storage: target.storage,
    organizationId: target.organizationId,
  };
}

export function fileTooLarge(limit: number): AppError {
  return new AppError("file_too_large", 413, `The file is larger than ${limit} bytes.`);
}

/**
 * Reads an upload, storing its file with `store`. If anything after the file refuses the
 * request (a second file, a bad field, a body cut short), the stored file is deleted at once
 * rather than left for the sweep.
 */
export async function receiveUpload(
  source: UploadSource,
  store: (file: IncomingFile, fields: Readonly<Record<string, string>>) => Promise<StreamedFile>,
): Promise<{ fields: Record<string, string>; file: StreamedFile | undefined }> {
  let stored: StreamedFile | undefined;
  try {
    return await source.read(async (incoming, fields) => {
      stored = await store(incoming, fields);
      return stored;
    });
  } catch (error) {
    if (stored) await stored.storage.driver.delete(stored.key).catch(() => undefined);
    throw error;
  }
}
