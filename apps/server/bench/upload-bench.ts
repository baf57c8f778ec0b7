import { randomBytes } from "node:crypto";
import { createWriteStream, mkdtempSync, rmSync } from "node:fs";
import { open } from "node:fs/promises";
import http from "node:http";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { crc32 } from "node:zlib";
import { residentBytes, startBenchServer } from "./bench-server.ts";

const mib = 1024 * 1024;
const block = randomBytes(mib);

/**
 * A stored (uncompressed) Windows .zip of `sizeMib` MiB whose bytes are generated as they are
 * sent, so the client reads no disk and both receivers get the identical byte stream. The
 * inspector reads a Windows .zip by its central directory and file name (x.y.z).
 */
function zipParts(sizeMib: number) {
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

type Zip = ReturnType<typeof zipParts>;

/** Sends a multipart body (fields, then the zip as `file`) and resolves with the reply. */
function send(url: URL, headers: Record<string, string>, fields: Record<string, string>, zip: Zip) {
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

/** The reference: a minimal Node server writing the request body to a file on the same disk (fsynced, as the storage driver does). */
async function startSink(dir: string) {
  let sequence = 0;
  const server = http.createServer(async (request, response) => {
    sequence += 1;
    const path = join(dir, `sink-${sequence}.bin`);
    await pipeline(request, createWriteStream(path));
    const handle = await open(path, "r");
    await handle.sync();
    await handle.close();
    rmSync(path, { force: true });
    response.end("ok");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("no sink port");
  return { server, url: `http://127.0.0.1:${address.port}/` };
}

export async function runUploadBench(sizeMib: number, runs: number) {
  const zip = zipParts(sizeMib);
  const bench = await startBenchServer();
  const sinkDir = mkdtempSync(join(bench.dataDir, "sink-"));
  const sink = await startSink(sinkDir);
  const pid = bench.server.child.pid ?? 0;
  const results = { sink: [] as number[], tarmac: [] as number[], growth: [] as number[] };
  try {
    for (let run = 0; run < runs; run++) {
      let started = performance.now();
      const sinkReply = await send(new URL(sink.url), {}, {}, zip);
      if (sinkReply.status !== 200) throw new Error(`sink: ${sinkReply.status}`);
      results.sink.push(zip.total / mib / ((performance.now() - started) / 1000));

      const baseline = residentBytes(pid);
      let peak = baseline;
      const sampler = setInterval(() => {
        peak = Math.max(peak, residentBytes(pid));
      }, 20);
      started = performance.now();
      const reply = await send(
        new URL(`${bench.url}/api/applicationadd/?preload=1`),
        { authorization: `Token ${bench.token}` },
        { organization: String(bench.organizationId), app_type: "2" },
        zip,
      );
      const seconds = (performance.now() - started) / 1000;
      clearInterval(sampler);
      if (reply.status !== 200) throw new Error(`preload: ${reply.status} ${reply.body.slice(0, 300)}`);
      results.tarmac.push(zip.total / mib / seconds);
      results.growth.push((peak - baseline) / mib);
    }
  } finally {
    sink.server.close();
    await bench.stop();
  }
  return results;
}
