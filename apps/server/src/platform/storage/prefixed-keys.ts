import { assertValidKey } from "./storage-driver.ts";
import { normalisePrefix } from "./storage-settings.ts";

/**
 * Maps the keys Tarmac uses to object names under a bucket prefix and back, so one bucket can
 * hold other things too. Keys are checked before they reach the bucket.
 */
export class PrefixedKeys {
  readonly prefix: string;

  constructor(prefix: string) {
    this.prefix = normalisePrefix(prefix);
  }

  /** The object name of a key. */
  name(key: string): string {
    assertValidKey(key);
    return this.prefix + key;
  }

  /** The object name of a list prefix ("" lists everything under the bucket prefix). */
  listPrefix(prefix: string): string {
    return this.prefix + prefix;
  }

  /** The key of an object name, or null when it is not under the prefix. */
  key(name: string): string | null {
    return name.startsWith(this.prefix) ? name.slice(this.prefix.length) : null;
  }
}

/** True for "no such object" answers of S3, Google and Azure (their errors differ in shape). */
export function isNotFound(error: unknown): boolean {
  const failure = error as {
    name?: string;
    code?: string | number;
    statusCode?: number;
    $metadata?: { httpStatusCode?: number };
  };
  return (
    failure?.name === "NoSuchKey" ||
    failure?.name === "NotFound" ||
    failure?.code === 404 ||
    failure?.code === "BlobNotFound" ||
    failure?.statusCode === 404 ||
    failure?.$metadata?.httpStatusCode === 404
  );
}
