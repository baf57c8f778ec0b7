import {
  isRetryableStatus,
  jsonOrStoreError,
  StoreError,
  type StoreHttpOptions,
  storeFetch,
} from "./store-http.ts";

/** Google wants every chunk but the last to be a multiple of 256 KiB. */
export const chunkGranularity = 256 * 1024;

export type ChunkOutcome<T> = { done: false; offset: number } | { done: true; result: T };

/** The offset Google holds after a 308: the end of its `Range: bytes=0-N` plus one, or 0. */
function offsetOf(response: Response): number {
  const range = response.headers.get("range");
  const match = range ? /^bytes=0-(\d+)$/.exec(range) : null;
  return match ? Number(match[1]) + 1 : 0;
}

/**
 * Google's resumable media protocol, written out because the generated client sends a media body
 * in one request: a session is opened, chunks are PUT with Content-Range, a 308 answers how far
 * it got, and after a failure the session is asked (`bytes * /total`) where to go on from.
 */
export class ResumableMediaUpload<T> {
  constructor(
    private readonly http: StoreHttpOptions,
    private readonly token: () => Promise<string>,
  ) {}

  async open(uploadUrl: string, size: number, contentType: string): Promise<string> {
    const response = await storeFetch(
      uploadUrl,
      {
        method: "POST",
        headers: {
          authorization: `Bearer ${await this.token()}`,
          "x-upload-content-type": contentType,
          "x-upload-content-length": String(size),
          "content-type": "application/json; charset=UTF-8",
        },
        body: "{}",
      },
      this.http,
    );
    if (!response.ok) await jsonOrStoreError(response, "Opening the upload session");
    const session = response.headers.get("location");
    if (!session) throw new StoreError("Google opened the upload session without a Location.", true);
    return session;
  }

  /** Where the session stands: the next offset, or the finished upload's answer. */
  async query(session: string, size: number): Promise<ChunkOutcome<T>> {
    return this.put(session, null, `bytes */${size}`, "Asking the upload session where it stands");
  }

  async send(session: string, bytes: Buffer, offset: number, size: number): Promise<ChunkOutcome<T>> {
    const range = `bytes ${offset}-${offset + bytes.length - 1}/${size}`;
    return this.put(session, bytes, range, `Sending bytes ${offset}–${offset + bytes.length - 1}`);
  }

  private async put(
    session: string,
    bytes: Buffer | null,
    range: string,
    what: string,
  ): Promise<ChunkOutcome<T>> {
    const response = await storeFetch(
      session,
      {
        method: "PUT",
        headers: { authorization: `Bearer ${await this.token()}`, "content-range": range },
        body: bytes ?? Buffer.alloc(0),
      },
      this.http,
    );
    if (response.status === 308) return { done: false, offset: offsetOf(response) };
    if (response.status === 404 || response.status === 410) {
      throw new StoreError(`${what}: the upload session has expired`, false, response.status);
    }
    if (!response.ok && !isRetryableStatus(response.status)) await jsonOrStoreError(response, what);
    return { done: true, result: await jsonOrStoreError<T>(response, what) };
  }
}
