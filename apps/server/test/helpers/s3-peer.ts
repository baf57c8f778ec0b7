import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { freePort } from "./server-process.ts";

interface S3rverInstance {
  run(): Promise<unknown>;
  close(): Promise<void>;
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;

/** s3rver's built-in account. */
export const s3PeerCredentials = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } as const;

/** The settings that keep an instance's files in `bucket` of the peer (path-style, its account). */
export function s3StorageEnv(peer: S3Peer, bucket: string): Record<string, string> {
  return {
    STORAGE_DRIVER: "s3",
    S3_ENDPOINT: peer.endpoint,
    S3_BUCKET: bucket,
    S3_FORCE_PATH_STYLE: "true",
    S3_ACCESS_KEY_ID: s3PeerCredentials.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3PeerCredentials.secretAccessKey,
  };
}

export interface S3Peer {
  endpoint: string;
  directory: string;
  stop(): Promise<void>;
}

/**
 * A real S3-compatible server (s3rver) on loopback, with `buckets` created, storing its objects
 * in a temporary directory. It checks request signatures against its built-in account.
 */
export async function startS3Peer(
  buckets: string[],
  directory = mkdtempSync(path.join(os.tmpdir(), "tarmac-s3-")),
): Promise<S3Peer> {
  const S3rver = createRequire(import.meta.url)("s3rver") as S3rverClass;
  const port = await freePort();
  const server = new S3rver({
    address: "127.0.0.1",
    port,
    silent: true,
    directory,
    configureBuckets: buckets.map((name) => ({ name })),
  });
  await server.run();
  let stopped: Promise<void> | null = null;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    directory,
    stop() {
      stopped ??= server.close().then(() => rmSync(directory, { recursive: true, force: true }));
      return stopped;
    },
  };
}
