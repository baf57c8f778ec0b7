import {
  AbortMultipartUploadCommand,
  ListMultipartUploadsCommand,
  type ListMultipartUploadsCommandOutput,
  ListPartsCommand,
  type S3Client,
} from "@aws-sdk/client-s3";

interface Bucket {
  client: S3Client;
  bucket: string;
  /** Only uploads under this prefix are the driver's to abort ("" for the whole bucket). */
  prefix: string;
}

type UploadMarkers = { KeyMarker?: string; UploadIdMarker?: string };

const statusOf = (error: unknown) =>
  (error as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;

/**
 * Aborts the unfinished multipart uploads under the prefix that nothing was written to since
 * `olderThan` and that `inUse` does not claim (by object name). Like the local driver's file
 * times, the newest part counts, not the start: a long upload still sending parts is left alone. Services that cannot list uploads (s3rver, some
 * gateways) answer HTTP 501: nothing to sweep from here, a bucket lifecycle rule
 * (AbortIncompleteMultipartUpload) has to do it. Returns how many were aborted.
 */
export async function abortStaleUploads(
  target: Bucket,
  olderThan: Date,
  inUse: (name: string) => Promise<boolean> = async () => false,
): Promise<number> {
  const { client, bucket } = target;
  let aborted = 0;
  let markers: UploadMarkers = {};
  for (;;) {
    const page = await listUploads(target, markers);
    if (!page) return aborted;
    for (const { Key, UploadId, Initiated } of page.Uploads ?? []) {
      if (!Key || !UploadId || !Initiated || Initiated >= olderThan) continue;
      if ((await lastPartWritten(target, Key, UploadId)) >= olderThan) continue;
      if (await inUse(Key)) continue;
      await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key, UploadId }));
      aborted += 1;
    }
    const next = { KeyMarker: page.NextKeyMarker, UploadIdMarker: page.NextUploadIdMarker };
    const advanced = next.KeyMarker !== markers.KeyMarker || next.UploadIdMarker !== markers.UploadIdMarker;
    if (!page.IsTruncated || !advanced) return aborted;
    markers = next;
  }
}

/** One page of unfinished uploads under the prefix; null where the service cannot list them. */
async function listUploads(
  { client, bucket, prefix }: Bucket,
  markers: UploadMarkers,
): Promise<ListMultipartUploadsCommandOutput | null> {
  try {
    return await client.send(
      new ListMultipartUploadsCommand({ Bucket: bucket, Prefix: prefix || undefined, ...markers }),
    );
  } catch (error) {
    if (statusOf(error) === 501) return null;
    throw error;
  }
}

/**
 * When the newest part of an unfinished upload arrived (the epoch when it has none). Pages by
 * IsTruncated rather than the SDK's paginator, which asks again for as long as a service keeps
 * answering with a NextPartNumberMarker (some do so on the last page too).
 */
async function lastPartWritten({ client, bucket }: Bucket, key: string, uploadId: string): Promise<Date> {
  let newest = new Date(0);
  let marker: string | undefined;
  for (;;) {
    const page = await client.send(
      new ListPartsCommand({ Bucket: bucket, Key: key, UploadId: uploadId, PartNumberMarker: marker }),
    );
    for (const part of page.Parts ?? []) {
      if (part.LastModified && part.LastModified > newest) newest = part.LastModified;
    }
    if (!page.IsTruncated || !page.NextPartNumberMarker || page.NextPartNumberMarker === marker)
      return newest;
    marker = page.NextPartNumberMarker;
  }
}
