import http from "node:http";
import { type BenchServer, startBenchServer } from "./bench-server.ts";
import { block, mib, preloadThroughTarmac, type Zip, zipParts } from "./upload-bench.ts";

/**
 * Resumable uploads (tus) against the plain streamed upload, same server, same bytes, same run:
 * the plain preload streams one multipart body; the resumable one creates an upload, sends the
 * bytes in PATCH requests of `patchMib`, and finishes with the preload naming `upload_id`. Then a
 * resume: the first PATCH is cut at half the file, HEAD asks for the offset, and the rest is sent
 * from there; what counts is how many bytes were sent in all against the file's size.
 */

/** The zip's bytes from `start` to `end`, generated as they are sent (no disk, no buffering). */
function* zipRange(zip: Zip, start: number, end: number): Generator<Buffer> {
  const pieces = function* () {
    yield zip.head;
    for (let i = 0; i < zip.sizeMib; i++) yield block;
    yield zip.tail;
  };
  let position = 0;
  for (const piece of pieces()) {
    const from = Math.max(start, position);
    const to = Math.min(end, position + piece.length);
    if (from < to) yield piece.subarray(from - position, to - position);
    position += piece.length;
    if (position >= end) return;
  }
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One tus request; `cutAfter` destroys the connection once that many body bytes are written. */
function tusRequest(
  bench: BenchServer,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: { zip: Zip; start: number; end: number; cutAfter?: number },
): Promise<Answer & { sent: number }> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    const request = http.request(new URL(path, bench.url), {
      method,
      headers: { authorization: `Token ${bench.token}`, "tus-resumable": "1.0.0", ...headers },
    });
    request.on("error", (error) => {
      if (body?.cutAfter !== undefined) resolve({ status: 0, headers: {}, body: "", sent });
      else reject(error);
    });
    request.on("response", (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        text += chunk;
      });
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text, sent }),
      );
    });
    if (!body) {
      request.end();
      return;
    }
    (async () => {
      for (const chunk of zipRange(body.zip, body.start, body.end)) {
        const room =
          body.cutAfter === undefined ? chunk.length : Math.min(chunk.length, body.cutAfter - sent);
        if (room <= 0) break;
        const piece = chunk.subarray(0, room);
        sent += piece.length;
        if (!request.write(piece)) await new Promise((resume) => request.once("drain", resume));
      }
      if (body.cutAfter !== undefined && sent >= body.cutAfter) {
        // A dropped connection: the server keeps the whole parts it has.
        await new Promise((settle) => setTimeout(settle, 200));
        request.destroy();
        return;
      }
      request.end();
    })().catch(reject);
  });
}

const metadata = (bench: BenchServer) =>
  [
    `filename ${Buffer.from("BenchApp-1.0.0.zip").toString("base64")}`,
    `organization ${Buffer.from(String(bench.organizationId)).toString("base64")}`,
  ].join(",");

async function create(bench: BenchServer, zip: Zip): Promise<string> {
  const created = await tusRequest(bench, "POST", "/api/uploads/", {
    "upload-length": String(zip.total),
    "upload-metadata": metadata(bench),
  });
  if (created.status !== 201) throw new Error(`create: ${created.status} ${created.body}`);
  return String(created.headers.location);
}

/** Sends the bytes from `offset` to the end in PATCHes of `patchBytes`; answers the bytes sent. */
async function sendFrom(bench: BenchServer, zip: Zip, location: string, offset: number, patchBytes: number) {
  let sent = 0;
  while (offset < zip.total) {
    const end = Math.min(zip.total, offset + patchBytes);
    const patched = await tusRequest(
      bench,
      "PATCH",
      location,
      {
        "content-type": "application/offset+octet-stream",
        "upload-offset": String(offset),
        "content-length": String(end - offset),
      },
      { zip, start: offset, end },
    );
    if (patched.status !== 204) throw new Error(`patch: ${patched.status} ${patched.body}`);
    sent += patched.sent;
    offset = Number(patched.headers["upload-offset"]);
  }
  return sent;
}

/** The preload naming the finished upload, as the web app and the CLI finish one. */
async function finish(bench: BenchServer, location: string): Promise<void> {
  const id = location.split("/").filter(Boolean).at(-1) ?? "";
  const form = new FormData();
  form.set("organization", String(bench.organizationId));
  form.set("app_type", "2");
  form.set("upload_id", id);
  const reply = await fetch(`${bench.url}/api/applicationadd/?preload=1`, {
    method: "POST",
    headers: { authorization: `Token ${bench.token}` },
    body: form,
  });
  if (reply.status !== 200) throw new Error(`finish: ${reply.status} ${await reply.text()}`);
}

export async function runResumableBench(sizeMib: number, runs: number, patchMib = 64) {
  const zip = zipParts(sizeMib);
  // Every run keeps two preloads (the streamed and the resumable one) waiting for confirmation.
  const bench = await startBenchServer({
    UPLOAD_RESUMABLE_PART_BYTES: String(16 * mib),
    UPLOAD_PENDING_PER_USER: String(2 * runs + 2),
  });
  const plain: number[] = [];
  const resumable: number[] = [];
  const ratios: number[] = [];
  const finishSeconds: number[] = [];
  let resentShare = 0;
  try {
    for (let run = 0; run < runs; run++) {
      const streamed = await preloadThroughTarmac(bench, zip, []);
      const started = performance.now();
      const location = await create(bench, zip);
      await sendFrom(bench, zip, location, 0, patchMib * mib);
      const finishing = performance.now();
      await finish(bench, location);
      finishSeconds.push((performance.now() - finishing) / 1000);
      const tus = zip.total / mib / ((performance.now() - started) / 1000);
      plain.push(streamed);
      resumable.push(tus);
      ratios.push(tus / streamed);
    }
    // The resume: cut at half, ask where to go on, send only the rest.
    const location = await create(bench, zip);
    const half = Math.floor(zip.total / 2);
    const cut = await tusRequest(
      bench,
      "PATCH",
      location,
      {
        "content-type": "application/offset+octet-stream",
        "upload-offset": "0",
        "content-length": String(zip.total),
      },
      { zip, start: 0, end: zip.total, cutAfter: half },
    );
    await new Promise((settle) => setTimeout(settle, 500));
    const head = await tusRequest(bench, "HEAD", location, {});
    const offset = Number(head.headers["upload-offset"]);
    const rest = await sendFrom(bench, zip, location, offset, patchMib * mib);
    await finish(bench, location);
    resentShare = (cut.sent + rest - zip.total) / zip.total;
    return {
      plain,
      resumable,
      ratios,
      finishSeconds,
      resume: { cutAt: half, offset, sentAfter: rest, total: zip.total, resentShare },
    };
  } finally {
    await bench.stop();
  }
}
