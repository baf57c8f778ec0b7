import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { inspect } from "@tarmac/inspector";
import { storageSource } from "../src/modules/upload/storage-source.ts";
import { ProxyLinks } from "../src/platform/storage/proxy-links.ts";
import { S3StorageDriver } from "../src/platform/storage/s3-driver.ts";
import { UrlSigner } from "../src/platform/storage/signed-url.ts";
import type { StorageDriver } from "../src/platform/storage/storage-driver.ts";
import { startBenchServer } from "./bench-server.ts";
import { block, mib, preloadThroughTarmac, type Zip, zipParts } from "./upload-bench.ts";

const credentials = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };
const bucket = "bench";

function zipStream(zip: Zip): Readable {
  return Readable.from(
    (function* () {
      yield zip.head;
      for (let i = 0; i < zip.sizeMib; i++) yield block;
      yield zip.tail;
    })(),
  );
}

async function startPeer(directory: string) {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", fileURLToPath(new URL("s3-peer-process.ts", import.meta.url)), directory, bucket],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const [chunk] = (await once(child.stdout, "data")) as [Buffer];
  return { child, endpoint: `http://127.0.0.1:${chunk.toString().trim()}` };
}

/** A driver that counts the bytes read through it: what the inspector fetches from the bucket. */
function counting(driver: StorageDriver) {
  const counter = { bytes: 0, requests: 0 };
  const counted = Object.assign(Object.create(driver) as StorageDriver, {
    async read(key: string, range?: { start: number; end: number }) {
      counter.requests += 1;
      const stream = await driver.read(key, range);
      stream.on("data", (chunk: Buffer) => {
        counter.bytes += chunk.length;
      });
      return stream;
    },
  });
  return { counted, counter };
}

/**
 * A `sizeMib` build uploaded through Tarmac into an S3-compatible bucket (s3rver in its own
 * process; STORAGE_DRIVER=s3) against a plain streamed PutObject of the same bytes to the same
 * bucket, in the same run, sides taking turns; the server's memory growth; and what inspecting
 * the stored build fetches from the bucket.
 */
export async function runBucketBench(sizeMib: number, runs: number) {
  const zip = zipParts(sizeMib);
  const directory = mkdtempSync(join(tmpdir(), "tarmac-bucket-bench-"));
  const peer = await startPeer(directory);
  const s3Env = {
    STORAGE_DRIVER: "s3",
    S3_ENDPOINT: peer.endpoint,
    S3_BUCKET: bucket,
    S3_FORCE_PATH_STYLE: "true",
    S3_ACCESS_KEY_ID: credentials.accessKeyId,
    S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
  };
  const bench = await startBenchServer(s3Env);
  const client = new S3Client({
    endpoint: peer.endpoint,
    region: "us-east-1",
    forcePathStyle: true,
    credentials,
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  const results = {
    plain: [] as number[],
    multipart: [] as number[],
    tarmac: [] as number[],
    ratios: [] as number[],
    multipartRatios: [] as number[],
    growth: [] as number[],
  };
  const plain = async (key: string) => {
    const started = performance.now();
    await client.send(
      new PutObjectCommand({ Bucket: bucket, Key: key, Body: zipStream(zip), ContentLength: zip.total }),
    );
    return zip.total / mib / ((performance.now() - started) / 1000);
  };
  // What any client streaming bytes of unknown length must do: a multipart upload, parts as the
  // driver's (8 MiB, three in flight). s3rver rewrites the whole object when one completes.
  const multipart = async (key: string) => {
    const started = performance.now();
    await new Upload({
      client,
      params: { Bucket: bucket, Key: key, Body: zipStream(zip) },
      partSize: 8 * mib,
      queueSize: 3,
    }).done();
    return zip.total / mib / ((performance.now() - started) / 1000);
  };
  const tarmac = () => preloadThroughTarmac(bench, zip, results.growth);
  try {
    for (let run = 0; run < runs; run++) {
      const rates = { plain: 0, multipart: 0, tarmac: 0 };
      const order = ["plain", "multipart", "tarmac"] as const;
      for (const which of run % 2 === 0 ? order : [...order].reverse()) {
        spawnSync("sync");
        if (which === "plain") rates.plain = await plain(`plain/${run}.zip`);
        else if (which === "multipart") rates.multipart = await multipart(`multipart/${run}.zip`);
        else rates.tarmac = await tarmac();
      }
      results.plain.push(rates.plain);
      results.multipart.push(rates.multipart);
      results.tarmac.push(rates.tarmac);
      results.ratios.push(rates.tarmac / rates.plain);
      results.multipartRatios.push(rates.tarmac / rates.multipart);
    }
    const driver = new S3StorageDriver(
      {
        kind: "s3",
        endpoint: peer.endpoint,
        region: "us-east-1",
        bucket,
        prefix: "plain/",
        forcePathStyle: true,
        ...credentials,
      },
      { links: new ProxyLinks(new UrlSigner("b".repeat(40)), "http://bench", null), proxyDownloads: false },
    );
    const { counted, counter } = counting(driver);
    const started = performance.now();
    const info = await inspect(storageSource(counted, "0.zip", zip.total), {
      fileName: "BenchApp-1.0.0.zip",
    });
    const inspection = {
      ms: performance.now() - started,
      fetchedBytes: counter.bytes,
      requests: counter.requests,
      appType: info.app_type,
    };
    return { ...results, inspection, totalBytes: zip.total };
  } finally {
    await bench.stop();
    peer.child.kill();
    rmSync(directory, { recursive: true, force: true });
  }
}
