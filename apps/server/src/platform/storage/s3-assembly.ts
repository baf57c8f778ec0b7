import { Readable } from "node:stream";
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  type S3Client,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import {
  type Assembly,
  blocksOf,
  type PieceInput,
  pieceChunks,
  pieceObjectKey,
  type StoredPiece,
} from "./assembly.ts";
import type { PrefixedKeys } from "./prefixed-keys.ts";
import type { StorageDriver } from "./storage-driver.ts";

/** S3 refuses parts below 5 MiB, except the last. */
export const leastPartBytes = 5 * 1024 * 1024;
const partBytes = 8 * 1024 * 1024;

type Part = [number, string];

const partsOf = (piece: StoredPiece): Part[] => (piece.detail ? (JSON.parse(piece.detail) as Part[]) : []);

/**
 * Assemblies as S3 multipart uploads: pieces go up as parts of 8 MiB (the last of a piece up to
 * 13 MiB, so no part but the object's last is below S3's least size), the upload id is the
 * assembly's handle, and CompleteMultipartUpload makes the object. A piece too small to be a
 * part (a request that ended early) is kept as an object of its own under the scratch prefix,
 * and the next piece that makes a part large enough reads those back and takes them in.
 */
export class S3Assembly {
  constructor(
    private readonly target: { client: S3Client; bucket: string; keys: PrefixedKeys },
    private readonly objects: Pick<StorageDriver, "put" | "read" | "delete">,
  ) {}

  async start(key: string, scratch: string): Promise<Assembly> {
    const { client, bucket, keys } = this.target;
    const created = await client.send(
      new CreateMultipartUploadCommand({ Bucket: bucket, Key: keys.name(key) }),
    );
    if (!created.UploadId) throw new Error("S3 answered no upload id");
    return { key, scratch, handle: created.UploadId };
  }

  async storePiece(assembly: Assembly, piece: PieceInput, earlier: StoredPiece[]): Promise<StoredPiece> {
    // The pieces after the last part are the ones waiting to become one.
    let first = earlier.length;
    while (first > 0 && earlier[first - 1]?.objectKey) first -= 1;
    const waiting = earlier.slice(first);
    const waitingBytes = waiting.reduce((total, kept) => total + kept.size, 0);
    const mayBeLast = piece.offset + piece.maxBytes >= piece.totalBytes;
    if (waitingBytes + piece.maxBytes < leastPartBytes && !mayBeLast) {
      const stored = await this.objects.put(pieceObjectKey(assembly.scratch, piece.offset), piece.body, {
        maxBytes: piece.maxBytes,
      });
      return { offset: piece.offset, size: stored.size, objectKey: stored.key, detail: null };
    }
    let pieceBytes = 0;
    const objects = this.objects;
    const source = (async function* () {
      for (const kept of waiting)
        yield* (await objects.read(kept.objectKey as string)) as AsyncIterable<Buffer>;
      for await (const chunk of pieceChunks(piece.body, piece.maxBytes)) {
        pieceBytes += chunk.length;
        yield chunk;
      }
    })();
    const offset = waiting[0]?.offset ?? piece.offset;
    let number = Math.max(0, ...earlier.flatMap((kept) => partsOf(kept).map(([n]) => n))) + 1;
    const parts: Part[] = [];
    for await (const block of blocksOf(source, partBytes, leastPartBytes)) {
      const isLastOfObject = piece.offset + pieceBytes === piece.totalBytes;
      if (block.last && block.bytes.length < leastPartBytes && !isLastOfObject) {
        // Too small to be a part and not the end: kept as one object in place of the waiting ones.
        const key = pieceObjectKey(assembly.scratch, offset);
        const stored = await this.objects.put(key, Readable.from([block.bytes]));
        return { offset, size: block.bytes.length, objectKey: stored.key, detail: null };
      }
      parts.push([number, await this.uploadPart(assembly, number, block.bytes)]);
      number += 1;
    }
    return { offset, size: waitingBytes + pieceBytes, objectKey: null, detail: JSON.stringify(parts) };
  }

  private async uploadPart(assembly: Assembly, number: number, bytes: Buffer): Promise<string> {
    const { client, bucket, keys } = this.target;
    const answer = await client.send(
      new UploadPartCommand({
        Bucket: bucket,
        Key: keys.name(assembly.key),
        UploadId: assembly.handle,
        PartNumber: number,
        Body: bytes,
        ContentLength: bytes.length,
      }),
    );
    if (!answer.ETag) throw new Error(`S3 answered no ETag for part ${number}`);
    return answer.ETag;
  }

  async complete(assembly: Assembly, pieces: StoredPiece[]): Promise<void> {
    const parts = pieces.flatMap(partsOf).sort((a, b) => a[0] - b[0]);
    if (pieces.every((piece) => piece.size === 0)) {
      // S3 completes no upload without parts: an empty object is written as one.
      await this.abort(assembly, pieces);
      await this.objects.put(assembly.key, Readable.from([]));
      return;
    }
    // The last piece always becomes a part with those waiting before it (it may be the last).
    if (pieces.some((piece) => piece.objectKey)) throw new Error("the assembly has pieces that are no parts");
    const { client, bucket, keys } = this.target;
    await client.send(
      new CompleteMultipartUploadCommand({
        Bucket: bucket,
        Key: keys.name(assembly.key),
        UploadId: assembly.handle,
        MultipartUpload: { Parts: parts.map(([PartNumber, ETag]) => ({ PartNumber, ETag })) },
      }),
    );
  }

  async abort(assembly: Assembly, pieces: StoredPiece[]): Promise<void> {
    const { client, bucket, keys } = this.target;
    for (const piece of pieces) if (piece.objectKey) await this.objects.delete(piece.objectKey);
    await client
      .send(
        new AbortMultipartUploadCommand({
          Bucket: bucket,
          Key: keys.name(assembly.key),
          UploadId: assembly.handle,
        }),
      )
      .catch((error: unknown) => {
        // Already completed or aborted: nothing is left to give up. Services that cannot abort
        // uploads (s3rver answers 405) keep the parts until a bucket lifecycle rule
        // (AbortIncompleteMultipartUpload) removes them, as with stale uploads.
        const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
        const name = (error as { name?: string }).name;
        if (name !== "NoSuchUpload" && status !== 405 && status !== 501) throw error;
      });
  }
}
