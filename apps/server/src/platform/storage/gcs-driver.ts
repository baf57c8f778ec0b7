import { Readable } from "node:stream";
import { type Assembly, type PieceInput, pieceObjectKey, type StoredPiece } from "./assembly.ts";
import { attachmentDisposition } from "./content-disposition.ts";
import type { DriverContext } from "./create-storage.ts";
import { GcsTokens, signGcsUrl } from "./gcs-auth.ts";
import { meteredPut } from "./metered-put.ts";
import { PrefixedKeys } from "./prefixed-keys.ts";
import type {
  ByteRange,
  ObjectInfo,
  SignedUrlOptions,
  StorageDriver,
  StoredObject,
} from "./storage-driver.ts";
import type { GcsSettings } from "./storage-settings.ts";

const googleApi = "https://storage.googleapis.com";
/** Resumable uploads take chunks in multiples of 256 KiB; 8 MiB keeps memory flat and requests few. */
const chunkSize = 32 * 256 * 1024;
/** Most source objects one compose request takes. */
const composeSources = 32;

interface GcsObject {
  name: string;
  size: string;
  updated: string;
}

class GcsError extends Error {
  override readonly name = "GcsError";
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

async function failure(response: Response, what: string): Promise<GcsError> {
  const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
  return new GcsError(
    response.status,
    `${what}: ${response.status} ${body?.error?.message ?? response.statusText}`,
  );
}

/**
 * Google Cloud Storage over its JSON API (documented at cloud.google.com/storage/docs/json_api):
 * resumable uploads in 8 MiB chunks, ranged media downloads, V4 signed URLs computed locally.
 * A failed write cancels its upload session, so no object appears; sessions left by a crash
 * expire by themselves within a week, so there is nothing for the sweep to delete.
 */
export class GcsStorageDriver implements StorageDriver {
  readonly name = "gcs";
  readonly servesDirectly: boolean;
  private readonly keys: PrefixedKeys;
  private readonly tokens: GcsTokens;
  private readonly api: string;

  constructor(
    private readonly settings: GcsSettings,
    private readonly context: DriverContext,
  ) {
    this.keys = new PrefixedKeys(settings.prefix);
    this.tokens = new GcsTokens(settings.credentials);
    this.api = (settings.apiEndpoint ?? googleApi).replace(/\/+$/, "");
    this.servesDirectly = !context.proxyDownloads;
  }

  private objectUrl(name: string): string {
    return `${this.api}/storage/v1/b/${encodeURIComponent(this.settings.bucket)}/o/${encodeURIComponent(name)}`;
  }

  private async request(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set("authorization", `Bearer ${await this.tokens.token()}`);
    return fetch(url, { ...init, headers, signal: init.signal ?? AbortSignal.timeout(120_000) });
  }

  async put(key: string, body: Readable, options: { maxBytes?: number } = {}): Promise<StoredObject> {
    const name = this.keys.name(key);
    return meteredPut(key, body, options, (_key, stream) => this.upload(name, stream));
  }

  private async upload(name: string, stream: Readable): Promise<void> {
    const start = await this.request(
      `${this.api}/upload/storage/v1/b/${encodeURIComponent(this.settings.bucket)}/o?uploadType=resumable&name=${encodeURIComponent(name)}`,
      { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name }) },
    );
    const session = start.headers.get("location");
    if (!start.ok || !session) throw await failure(start, "starting the upload failed");
    let offset = 0;
    try {
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      for await (const chunk of stream) {
        pending.push(chunk as Buffer);
        pendingBytes += (chunk as Buffer).length;
        while (pendingBytes >= chunkSize + 1) {
          // Keep at least one byte back: the last chunk must carry the total size.
          const all = Buffer.concat(pending);
          await this.sendChunk(session, all.subarray(0, chunkSize), offset, null);
          offset += chunkSize;
          pending = [all.subarray(chunkSize)];
          pendingBytes = all.length - chunkSize;
        }
      }
      const last = Buffer.concat(pending);
      await this.sendChunk(session, last, offset, offset + last.length);
    } catch (error) {
      await fetch(session, { method: "DELETE" }).catch(() => undefined);
      throw error;
    }
  }

  private async sendChunk(
    session: string,
    chunk: Buffer,
    offset: number,
    total: number | null,
  ): Promise<void> {
    const range =
      chunk.length === 0
        ? `bytes */${total}`
        : `bytes ${offset}-${offset + chunk.length - 1}/${total ?? "*"}`;
    const response = await fetch(session, {
      method: "PUT",
      headers: { "content-range": range },
      body: chunk,
      signal: AbortSignal.timeout(120_000),
    });
    const expected = total === null ? 308 : 200;
    if (response.status !== expected && !(total !== null && response.status === 201)) {
      throw await failure(response, "uploading failed");
    }
    await response.arrayBuffer().catch(() => undefined);
  }

  async startAssembly(key: string, scratch: string): Promise<Assembly> {
    this.keys.name(key);
    return { key, scratch, handle: "" };
  }

  /** Each piece is an object of its own under the scratch prefix; compose joins them at the end. */
  async storePiece(assembly: Assembly, piece: PieceInput): Promise<StoredPiece> {
    const key = pieceObjectKey(assembly.scratch, piece.offset);
    const stored = await this.put(key, piece.body, { maxBytes: piece.maxBytes });
    return { offset: piece.offset, size: stored.size, objectKey: key, detail: null };
  }

  /**
   * Composes the pieces into the object inside the bucket, 32 at a time (the most one request
   * takes): more than that are composed into intermediate objects first, then those.
   */
  async completeAssembly(assembly: Assembly, pieces: StoredPiece[]): Promise<void> {
    let sources = pieces.map((piece) => piece.objectKey as string);
    if (sources.length === 0) {
      await this.put(assembly.key, Readable.from([]));
      return;
    }
    const intermediates: string[] = [];
    for (let round = 0; sources.length > composeSources; round++) {
      const next: string[] = [];
      for (let start = 0; start < sources.length; start += composeSources) {
        const key = `${assembly.scratch}compose-${round}-${start / composeSources}`;
        await this.compose(sources.slice(start, start + composeSources), key);
        next.push(key);
      }
      intermediates.push(...next);
      sources = next;
    }
    await this.compose(sources, assembly.key);
    for (const key of [...pieces.map((piece) => piece.objectKey as string), ...intermediates])
      await this.delete(key);
  }

  private async compose(sources: string[], key: string): Promise<void> {
    const response = await this.request(`${this.objectUrl(this.keys.name(key))}/compose`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        sourceObjects: sources.map((source) => ({ name: this.keys.name(source) })),
        destination: { contentType: "application/octet-stream" },
      }),
    });
    if (!response.ok) throw await failure(response, `composing ${key} failed`);
    await response.arrayBuffer().catch(() => undefined);
  }

  async abortAssembly(_assembly: Assembly, pieces: StoredPiece[]): Promise<void> {
    for (const piece of pieces) if (piece.objectKey) await this.delete(piece.objectKey);
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    const response = await this.request(`${this.objectUrl(this.keys.name(key))}?alt=media`, {
      headers: range ? { range: `bytes=${range.start}-${range.end}` } : {},
    });
    if (!response.ok || !response.body) throw await failure(response, `reading ${key} failed`);
    return Readable.fromWeb(response.body as import("node:stream/web").ReadableStream);
  }

  async stat(key: string): Promise<ObjectInfo | null> {
    const response = await this.request(this.objectUrl(this.keys.name(key)));
    if (response.status === 404) return null;
    if (!response.ok) throw await failure(response, `reading ${key} failed`);
    const object = (await response.json()) as GcsObject;
    return { key, size: Number(object.size), modifiedAt: new Date(object.updated) };
  }

  async delete(key: string): Promise<void> {
    const response = await this.request(this.objectUrl(this.keys.name(key)), { method: "DELETE" });
    if (!response.ok && response.status !== 404) throw await failure(response, `deleting ${key} failed`);
    await response.arrayBuffer().catch(() => undefined);
  }

  async *list(prefix: string): AsyncIterable<ObjectInfo> {
    let pageToken: string | undefined;
    do {
      const query = new URLSearchParams({ prefix: this.keys.listPrefix(prefix), maxResults: "1000" });
      if (pageToken) query.set("pageToken", pageToken);
      const response = await this.request(
        `${this.api}/storage/v1/b/${encodeURIComponent(this.settings.bucket)}/o?${query.toString()}`,
      );
      if (!response.ok) throw await failure(response, "listing failed");
      const page = (await response.json()) as { items?: GcsObject[]; nextPageToken?: string };
      for (const object of page.items ?? []) {
        const key = this.keys.key(object.name);
        if (key) yield { key, size: Number(object.size), modifiedAt: new Date(object.updated) };
      }
      pageToken = page.nextPageToken;
    } while (pageToken);
  }

  async signedUrl(key: string, options: SignedUrlOptions): Promise<string> {
    if (!this.servesDirectly) return this.context.links.url(key, options);
    const query: Record<string, string> = {};
    if (options.fileName) query["response-content-disposition"] = attachmentDisposition(options.fileName);
    if (options.contentType) query["response-content-type"] = options.contentType;
    return signGcsUrl(this.settings.credentials, {
      origin: this.api,
      bucket: this.settings.bucket,
      name: this.keys.name(key),
      expiresInSeconds: options.expiresInSeconds,
      query,
    });
  }

  async checkHealth(): Promise<void> {
    const response = await this.request(
      `${this.api}/storage/v1/b/${encodeURIComponent(this.settings.bucket)}`,
    );
    if (!response.ok) throw await failure(response, "the bucket did not answer");
    await response.arrayBuffer().catch(() => undefined);
  }
}
