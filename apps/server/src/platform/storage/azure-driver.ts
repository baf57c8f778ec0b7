import type { Readable } from "node:stream";
import {
  BlobSASPermissions,
  BlobServiceClient,
  type ContainerClient,
  generateBlobSASQueryParameters,
  StorageSharedKeyCredential,
} from "@azure/storage-blob";
import { type Assembly, blocksOf, type PieceInput, pieceChunks, type StoredPiece } from "./assembly.ts";
import { attachmentDisposition } from "./content-disposition.ts";
import type { DriverContext } from "./create-storage.ts";
import { meteredPut } from "./metered-put.ts";
import { isNotFound, PrefixedKeys } from "./prefixed-keys.ts";
import type {
  ByteRange,
  ObjectInfo,
  SignedUrlOptions,
  StorageDriver,
  StoredObject,
} from "./storage-driver.ts";
import type { AzureSettings } from "./storage-settings.ts";

const blockSize = 8 * 1024 * 1024;
const blocksInFlight = 4;

/** Block ids of one blob must all be as long: the block's offset, zero-padded. */
const blockId = (offset: number) =>
  Buffer.from(`block-${String(offset).padStart(16, "0")}`).toString("base64");

/**
 * Azure Blob Storage. Writes stage 8 MiB blocks and commit them at the end: a failed write
 * never commits, so no blob appears. Uncommitted blocks are removed by Azure itself after a
 * week, so there is nothing for the sweep to delete.
 */
export class AzureStorageDriver implements StorageDriver {
  readonly name = "azure";
  readonly servesDirectly: boolean;
  private readonly container: ContainerClient;
  private readonly keys: PrefixedKeys;
  private readonly credential: StorageSharedKeyCredential | null;

  constructor(
    settings: AzureSettings,
    private readonly context: DriverContext,
  ) {
    const service = BlobServiceClient.fromConnectionString(settings.connectionString);
    this.container = service.getContainerClient(settings.container);
    this.keys = new PrefixedKeys(settings.prefix);
    this.credential = service.credential instanceof StorageSharedKeyCredential ? service.credential : null;
    // SAS links need the account key; a connection string with a SAS token only can proxy.
    this.servesDirectly = !context.proxyDownloads && this.credential !== null;
  }

  async put(key: string, body: Readable, options: { maxBytes?: number } = {}): Promise<StoredObject> {
    const blob = this.container.getBlockBlobClient(this.keys.name(key));
    return meteredPut(key, body, options, async (_key, stream) => {
      await blob.uploadStream(stream, blockSize, blocksInFlight);
    });
  }

  async startAssembly(key: string, scratch: string): Promise<Assembly> {
    this.keys.name(key);
    return { key, scratch, handle: "" };
  }

  /**
   * Stages the piece as blocks of the blob it becomes (8 MiB each, named by offset): nothing is
   * visible until the block list is committed. A piece staged again replaces its blocks.
   */
  async storePiece(assembly: Assembly, piece: PieceInput): Promise<StoredPiece> {
    const blob = this.container.getBlockBlobClient(this.keys.name(assembly.key));
    const ids: string[] = [];
    let offset = piece.offset;
    for await (const block of blocksOf(pieceChunks(piece.body, piece.maxBytes), blockSize)) {
      const id = blockId(offset);
      await blob.stageBlock(id, block.bytes, block.bytes.length);
      ids.push(id);
      offset += block.bytes.length;
    }
    return {
      offset: piece.offset,
      size: offset - piece.offset,
      objectKey: null,
      detail: JSON.stringify(ids),
    };
  }

  async completeAssembly(assembly: Assembly, pieces: StoredPiece[]): Promise<void> {
    const ids = pieces.flatMap((piece) => (piece.detail ? (JSON.parse(piece.detail) as string[]) : []));
    await this.container.getBlockBlobClient(this.keys.name(assembly.key)).commitBlockList(ids);
  }

  /** Blocks never committed cannot be deleted one by one: Azure drops them after a week. */
  async abortAssembly(): Promise<void> {}

  async read(key: string, range?: ByteRange): Promise<Readable> {
    const blob = this.container.getBlobClient(this.keys.name(key));
    const answer = range
      ? await blob.download(range.start, range.end - range.start + 1)
      : await blob.download();
    return answer.readableStreamBody as Readable;
  }

  async stat(key: string): Promise<ObjectInfo | null> {
    try {
      const properties = await this.container.getBlobClient(this.keys.name(key)).getProperties();
      return { key, size: properties.contentLength ?? 0, modifiedAt: properties.lastModified ?? new Date(0) };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.container.getBlobClient(this.keys.name(key)).deleteIfExists();
  }

  async *list(prefix: string): AsyncIterable<ObjectInfo> {
    for await (const item of this.container.listBlobsFlat({ prefix: this.keys.listPrefix(prefix) })) {
      const key = this.keys.key(item.name);
      if (key)
        yield { key, size: item.properties.contentLength ?? 0, modifiedAt: item.properties.lastModified };
    }
  }

  async signedUrl(key: string, options: SignedUrlOptions): Promise<string> {
    if (!this.servesDirectly || !this.credential) return this.context.links.url(key, options);
    const blob = this.container.getBlobClient(this.keys.name(key));
    const sas = generateBlobSASQueryParameters(
      {
        containerName: this.container.containerName,
        blobName: blob.name,
        permissions: BlobSASPermissions.parse("r"),
        startsOn: new Date(Date.now() - 60_000),
        expiresOn: new Date(Date.now() + options.expiresInSeconds * 1000),
        ...(options.fileName ? { contentDisposition: attachmentDisposition(options.fileName) } : {}),
        ...(options.contentType ? { contentType: options.contentType } : {}),
      },
      this.credential,
    );
    return `${blob.url}?${sas.toString()}`;
  }

  async checkHealth(): Promise<void> {
    await this.container.getProperties();
  }
}
