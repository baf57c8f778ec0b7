import type { Readable } from "node:stream";
import type { StoredObject } from "./storage-driver.ts";

/** The file of an upload as it arrives: read `body` once, to the end (or the source fails). */
export interface IncomingFile {
  fieldName: string;
  fileName: string;
  /** What the client declared; the stored type comes from what the inspector finds. */
  contentType: string;
  body: Readable;
  /** True once the client sent more than the upload limit (the body was cut short). */
  truncated(): boolean;
  /** The whole request's declared length (Content-Length), when the client sent one. */
  declaredRequestBytes: number | null;
  /**
   * Set when the bytes were uploaded beforehand for one organization (a resumable upload): they
   * may become a build of that organization only. The body then reads from storage, so its
   * failures are the server's rather than a client's that went away.
   */
  organizationId?: number;
  /**
   * Set when the bytes are in storage already (a finished resumable upload, whose size is
   * `declaredRequestBytes`): makes them an object without copying them and answers it. `body`
   * is then empty.
   */
  assemble?: () => Promise<StoredObject>;
}

/**
 * What a multipart request may carry besides its file (part headers, boundaries, text fields):
 * a declared length beyond file limit + this cannot be a file within the limit.
 */
export const multipartAllowanceBytes = 1024 * 1024;

/**
 * An upload request as services see it: text fields and one file, in the order the client
 * sent them, without HTTP. `read` calls `onFile` when the file starts, with the fields read so
 * far; `onFile` must consume the body. Fields after the file are read too.
 */
export interface UploadSource {
  /** The client's address (behind a proxy, as TRUST_PROXY allows). */
  clientAddress: string;
  read<T>(
    onFile: (file: IncomingFile, fieldsSoFar: Readonly<Record<string, string>>) => Promise<T>,
  ): Promise<{ fields: Record<string, string>; file: T | undefined }>;
}
