import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { mkdtempSync } from "node:fs";
import http from "node:http";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { crc32 } from "node:zlib";
import { type BenchServer, residentBytes, startBenchServer } from "./bench-server.ts";

export const mib = 1024 * 1024;
export const block = randomBytes(mib);

/**
 * A stored (uncompressed) Windows .zip of `sizeMib` MiB whose bytes are generated as they are
 * sent, so the client reads no disk and both receivers get the identical byte stream. The
 * inspector reads a Windows .zip by its central directory and file name (x.y.z).
 */
export function zipParts(sizeMib: number) {
  let crc = 0;
  for (let i = 0; i < sizeMib; i++) crc = crc32(block, crc);
  const name = Buffer.from("payload.bin");
  const size = sizeMib * mib;
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt32LE(crc >>> 0, 14);
  local.writeUInt32LE(size, 18);
  local.writeUInt32LE(size, 22);
  local.writeUInt16LE(name.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt32LE(crc >>> 0, 16);
  central.writeUInt32LE(size, 20);
  central.writeUInt32LE(size, 24);
  central.writeUInt16LE(name.length, 28);
  const centralSize = central.length + name.length;
  const centralOffset = local.length + name.length + size;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(centralOffset, 16);
  const head = Buffer.concat([local, name]);
  const tail = Buffer.concat([central, name, end]);
  return { head, tail, sizeMib, total: head.length + size + tail.length };
}

export type Zip = ReturnType<typeof zipParts>;

/** Sends a multipart body (fields, then the zip as `file`) and resolves with the reply. */
export function send(url: URL, headers: Record<string, string>, fields: Record<string, string>, zip: Zip) {
  const boundary = `----tarmacbench${Date.now()}`;
  let prefix = "";
  for (const [key, value] of Object.entries(fields))
    prefix += `--${boundary}\r\nContent-Disposition: form-data; name="${key}"\r\n\r\n${value}\r\n`;
  prefix += `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="BenchApp-1.0.0.zip"\r\nContent-Type: application/zip\r\n\r\n`;
  const suffix = `\r\n--${boundary}--\r\n`;
  const length = Buffer.byteLength(prefix) + zip.total + Buffer.byteLength(suffix);
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = http.request(url, {
      method: "POST",
      headers: {
        ...headers,
        "content-type": `multipart/form-data; boundary=${boundary}`,
        "content-length": String(length),
      },
    });
    request.on("error", reject);
    request.on("response", (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        body += chunk;
      });
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
    });
    const chunks = function* () {
      yield Buffer.from(prefix);
      yield zip.head;
      for (let i = 0; i < zip.sizeMib; i++) yield block;
      yield zip.tail;
      yield Buffer.from(suffix);
    };
    (async () => {
      for (const chunk of chunks()) {
        if (!request.write(chunk)) await new Promise((resume) => request.once("drain", resume));
      }
      request.end();
    })().catch(reject);
  });
}

/**
 * One upload of `zip` through `POST /api/applicationadd/?preload=1` of a bench server, as CI
 * sends it; answers MiB/s and records the server's memory growth (MiB) in `growth`.
 */
export async function preloadThroughTarmac(bench: BenchServer, zip: Zip, growth: number[]): Promise<number> {
  const pid = bench.server.child.pid ?? 0;
  const baseline = residentBytes(pid);
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, residentBytes(pid));
  }, 20);
  const started = performance.now();
  const reply = await send(
    new URL(`${bench.url}/api/applicationadd/?preload=1`),
    { authorization: `Token ${bench.token}` },
    { organization: String(bench.organizationId), app_type: "2" },
    zip,
  );
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  if (reply.status !== 200) throw new Error(`preload: ${reply.status} ${reply.body.slice(0, 300)}`);
  growth.push((peak - baseline) / mib);
  return zip.total / mib / seconds;
}

/** Starts bench/disk-sink.ts in its own process and waits for its port. */
async function startSink(dir: string) {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", fileURLToPath(new URL("disk-sink.ts", import.meta.url)), dir],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const [chunk] = (await once(child.stdout, "data")) as [Buffer];
  return { child, url: `http://127.0.0.1:${chunk.toString().trim()}/` };
}

/**
 * `runs` pairs of uploads, the sink and the server taking turns going first (dirty pages left by
 * one upload slow the next), with a sync between uploads so each starts from a clean disk.
 */
export async function runUploadBench(sizeMib: number, runs: number) {
  const zip = zipParts(sizeMib);
  const bench = await startBenchServer();
  const sinkDir = mkdtempSync(join(bench.dataDir, "sink-"));
  const sink = await startSink(sinkDir);
  const results = {
    sink: [] as number[],
    tarmac: [] as number[],
    ratios: [] as number[],
    growth: [] as number[],
  };
  const toSink = async () => {
    const started = performance.now();
    const reply = await send(new URL(sink.url), {}, {}, zip);
    if (reply.status !== 200) throw new Error(`sink: ${reply.status}`);
    return zip.total / mib / ((performance.now() - started) / 1000);
  };
  const toTarmac = () => preloadThroughTarmac(bench, zip, results.growth);
  try {
    for (let run = 0; run < runs; run++) {
      let sinkRate = 0;
      let tarmacRate = 0;
      for (const which of run % 2 === 0 ? ["sink", "tarmac"] : ["tarmac", "sink"]) {
        spawnSync("sync");
        if (which === "sink") sinkRate = await toSink();
        else tarmacRate = await toTarmac();
      }
      results.sink.push(sinkRate);
      results.tarmac.push(tarmacRate);
      results.ratios.push(tarmacRate / sinkRate);
    }
  } finally {
    sink.child.kill();
    await bench.stop();
  }
  return results;
}
