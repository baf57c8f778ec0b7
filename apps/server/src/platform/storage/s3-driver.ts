import { Agent as HttpAgent } from "node:http";
import { Agent as HttpsAgent } from "node:https";
import type { Readable } from "node:stream";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import type { Assembly, PieceInput, StoredPiece } from "./assembly.ts";
import { attachmentDisposition } from "./content-disposition.ts";
import type { DriverContext } from "./create-storage.ts";
import { answeredRange, sliceAnswer } from "./exact-range.ts";
import { meteredPut } from "./metered-put.ts";
import { isNotFound, PrefixedKeys } from "./prefixed-keys.ts";
import { S3Assembly } from "./s3-assembly.ts";
import { abortStaleUploads } from "./s3-stale-uploads.ts";
import type {
  ByteRange,
  ObjectInfo,
  SignedUrlOptions,
  StorageDriver,
  StoredObject,
} from "./storage-driver.ts";
import type { S3Settings } from "./storage-settings.ts";

// The SDK warns on every start under Node 20 that releases after January 2027 need Node 22. The
// lock file pins the release in use, and the install-engines test keeps every locked package
// within the Node version the README promises, so the warning would only alarm the people running Tarmac.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

const partSize = 8 * 1024 * 1024;
const partsInFlight = 3;

/**
 * Any S3-compatible service. Writes are multipart uploads of 8 MiB parts (at most three in
 * flight, so memory stays flat whatever the size); a failed write aborts its upload, so neither
 * an object nor orphaned parts remain.
 */
export class S3StorageDriver implements StorageDriver {
  readonly name = "s3";
  readonly servesDirectly: boolean;
  private readonly client: S3Client;
  private readonly keys: PrefixedKeys;
  private readonly bucket: string;
  private readonly assembly: S3Assembly;

  constructor(
    settings: S3Settings,
    private readonly context: DriverContext,
  ) {
    this.bucket = settings.bucket;
    this.keys = new PrefixedKeys(settings.prefix);
    this.servesDirectly = !context.proxyDownloads;
    const agentOptions = {
      keepAlive: true,
      maxSockets: 64,
      ...(context.lookup ? { lookup: context.lookup } : {}),
    };
    this.client = new S3Client({
      region: settings.region || "us-east-1",
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      forcePathStyle: settings.forcePathStyle,
      credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
      // Checksums only where S3 requires them: the default adds a trailing checksum to streamed
      // bodies that several S3-compatible services store corrupted, and puts an empty-body
      // checksum into presigned URLs.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
      maxAttempts: 3,
      requestHandler: {
        httpAgent: new HttpAgent(agentOptions),
        httpsAgent: new HttpsAgent(agentOptions),
        connectionTimeout: 10_000,
        requestTimeout: 120_000,
      },
    });
    this.assembly = new S3Assembly({ client: this.client, bucket: this.bucket, keys: this.keys }, this);
  }

  startAssembly(key: string, scratch: string): Promise<Assembly> {
    return this.assembly.start(key, scratch);
  }

  storePiece(assembly: Assembly, piece: PieceInput, earlier: StoredPiece[]): Promise<StoredPiece> {
    return this.assembly.storePiece(assembly, piece, earlier);
  }

  completeAssembly(assembly: Assembly, pieces: StoredPiece[]): Promise<void> {
    return this.assembly.complete(assembly, pieces);
  }

  abortAssembly(assembly: Assembly, pieces: StoredPiece[]): Promise<void> {
    return this.assembly.abort(assembly, pieces);
  }

  async put(key: string, body: Readable, options: { maxBytes?: number } = {}): Promise<StoredObject> {
    const name = this.keys.name(key);
    return meteredPut(key, body, options, async (_key, stream) => {
      const upload = new Upload({
        client: this.client,
        params: { Bucket: this.bucket, Key: name, Body: stream },
        partSize,
        queueSize: partsInFlight,
        leavePartsOnError: false,
      });
      // A source that fails mid-way must abort the multipart upload, not leave it hanging.
      stream.once("error", () => void upload.abort().catch(() => undefined));
      await upload.done();
    });
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    const answer = await this.client.send(
      new GetObjectCommand({
        Bucket: this.bucket,
        Key: this.keys.name(key),
        ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
      }),
    );
    const body = answer.Body as Readable;
    if (!range) return body;
    const answered = answeredRange(answer.ContentRange) ?? { start: 0, end: Number.MAX_SAFE_INTEGER };
    const exact = answered.start === range.start && answered.end === range.end;
    return exact ? body : sliceAnswer(body, range, answered.start);
  }

  async stat(key: string): Promise<ObjectInfo | null> {
    try {
      const head = await this.client.send(
        new HeadObjectCommand({ Bucket: this.bucket, Key: this.keys.name(key) }),
      );
      return { key, size: head.ContentLength ?? 0, modifiedAt: head.LastModified ?? new Date(0) };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.keys.name(key) }));
  }

  async *list(prefix: string): AsyncIterable<ObjectInfo> {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: this.keys.listPrefix(prefix),
          ...(token ? { ContinuationToken: token } : {}),
        }),
      );
      for (const object of page.Contents ?? []) {
        const key = object.Key ? this.keys.key(object.Key) : null;
        if (key) yield { key, size: object.Size ?? 0, modifiedAt: object.LastModified ?? new Date(0) };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async signedUrl(key: string, options: SignedUrlOptions): Promise<string> {
    if (!this.servesDirectly) return this.context.links.url(key, options);
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: this.keys.name(key),
      ...(options.fileName ? { ResponseContentDisposition: attachmentDisposition(options.fileName) } : {}),
      ...(options.contentType ? { ResponseContentType: options.contentType } : {}),
    });
    return getSignedUrl(this.client, command, { expiresIn: options.expiresInSeconds });
  }

  async checkHealth(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
  }

  /**
   * Aborts multipart uploads under the prefix that stopped receiving parts (a crash leaves them),
   * except those of an assembly still in use (a resumable upload that paused).
   */
  deleteStaleTemporaryFiles(olderThan: Date, inUse?: (key: string) => Promise<boolean>): Promise<number> {
    return abortStaleUploads(
      { client: this.client, bucket: this.bucket, prefix: this.keys.prefix },
      olderThan,
      async (name) => {
        const key = this.keys.key(name);
        return key !== null && inUse !== undefined && (await inUse(key));
      },
    );
  }
}
