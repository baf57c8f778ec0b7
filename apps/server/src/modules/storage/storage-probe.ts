import { randomBytes, randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import { describeNetworkFailure, privateAddressMessage } from "../../platform/net/network-errors.ts";
import type { StorageDriver } from "../../platform/storage/storage-driver.ts";

/** Which form field a failed probe points at, and what to tell the person who typed it. */
export interface ProbeFailure {
  field: string;
  message: string;
}

const notS3Message =
  "This address did not answer as S3-compatible storage (it sent a web page, not S3's XML). Check the endpoint: it is the storage service's API address, without the bucket.";

/**
 * Proves a bucket works the way uploads and installs need it: write an object, read a range of
 * it back (installers and the inspector read ranges), delete it. Answers the failure, or null.
 */
export async function probeStorage(
  driver: StorageDriver,
  fields: { endpoint?: string; bucket: string; credentials: string; secret?: string },
): Promise<ProbeFailure | null> {
  const key = `tarmac-probe/${randomUUID()}`;
  const bytes = randomBytes(64);
  try {
    await driver.put(key, Readable.from([bytes]));
    const middle = await buffer(await driver.read(key, { start: 10, end: 19 }));
    await driver.delete(key);
    if (!middle.equals(bytes.subarray(10, 20))) {
      // Random bytes were written: text coming back is a web server answering anything with 200.
      if (fields.endpoint && /^[\t\n\r\x20-\x7e]*$/.test(middle.toString("latin1"))) {
        return { field: fields.endpoint, message: notS3Message };
      }
      return { field: fields.bucket, message: "The bucket answered a range read with the wrong bytes." };
    }
    return null;
  } catch (error) {
    await driver.delete(key).catch(() => undefined);
    return describeFailure(error, fields);
  }
}

/** Reads what S3, Google and the network say went wrong, as well as their errors allow. */
function describeFailure(
  error: unknown,
  fields: { endpoint?: string; bucket: string; credentials: string; secret?: string },
): ProbeFailure {
  const failure = error as {
    name?: string;
    code?: string | number;
    message?: string;
    cause?: { code?: string };
    $metadata?: { httpStatusCode?: number };
  };
  const text = `${failure.name ?? ""} ${failure.code ?? ""} ${failure.cause?.code ?? ""} ${failure.message ?? ""}`;
  const status = failure.$metadata?.httpStatusCode ?? (typeof failure.code === "number" ? failure.code : 0);
  const detail = (failure.message ?? String(error)).split("\n")[0]?.slice(0, 300) ?? "";
  const network = describeNetworkFailure(error);
  if (network === privateAddressMessage)
    return { field: fields.endpoint ?? fields.credentials, message: network };
  if (
    network ||
    /ENOTFOUND|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EAI_AGAIN|certificate|TimeoutError/i.test(text)
  ) {
    return {
      field: fields.endpoint ?? fields.credentials,
      message: `The storage service could not be reached. ${network ?? detail}`,
    };
  }
  // The AWS SDK could not read the answer as S3's XML: a web page, another API, a wrong port.
  if (
    /Deserialization error|char '.' is not expected|Unexpected close tag|Non-whitespace before first tag|not well-formed/i.test(
      text,
    ) ||
    (status >= 200 && status < 300 && fields.endpoint)
  ) {
    return {
      field: fields.endpoint ?? fields.bucket,
      message: notS3Message,
    };
  }
  if (/NoSuchBucket|bucket does not exist|Not Found/i.test(text) || status === 404) {
    return { field: fields.bucket, message: "This bucket does not exist." };
  }
  if (/SignatureDoesNotMatch/i.test(text)) {
    return { field: fields.secret ?? fields.credentials, message: "The secret does not match the key." };
  }
  if (/InvalidAccessKeyId|invalid_grant|invalid_client|Unauthorized/i.test(text) || status === 401) {
    return { field: fields.credentials, message: `The storage service refused these credentials: ${detail}` };
  }
  if (/AccessDenied|Forbidden|permission/i.test(text) || status === 403) {
    return {
      field: fields.credentials,
      message: "These credentials may not write, read and delete objects in this bucket.",
    };
  }
  return { field: fields.bucket, message: `The storage service refused the test: ${detail}` };
}
